/**
 * @module scripts/export
 * `npm run export -- --user <id> [--key <key>] [--url <base>] [--status s] [--category c] [--since iso] [--agent id] --out memories.jsonl`
 * Streams GET /v1/export (docs/export-format.md) to FILE (or stdout without --out), with a progress
 * bar on stderr. `--out` writes FILE.partial and renames it to FILE only once the format's end line
 * has arrived, so an interrupted export never looks complete; a relative FILE is taken from the
 * directory `npm run` was started in. (Redirecting stdout needs `npm run --silent export`, or npm's
 * own banner lands in the file.) With
 * a user key, --user may be left out (the key names its user); an app key needs it. The key
 * comes from --key or HIPPOCAMPUS_KEY, the server from --url or HIPPOCAMPUS_URL. Exits non-zero
 * when the stream ends without the format's last line (an incomplete file).
 */
import { createWriteStream, renameSync, rmSync, type WriteStream } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

class CliError extends Error {}

const USAGE =
  "usage: npm run export -- [--user <id>] [--key <key>] [--url http://127.0.0.1:8787] [--status all|active|…] [--category c] [--since 2025-01-01] [--agent <id>] [--out memories.jsonl]";

function options() {
  const { values } = parseArgs({
    options: {
      user: { type: "string" },
      key: { type: "string" },
      url: { type: "string" },
      status: { type: "string" },
      category: { type: "string" },
      since: { type: "string" },
      agent: { type: "string" },
      out: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
  const key = values.key ?? process.env.HIPPOCAMPUS_KEY;
  if (!key) throw new CliError(`no API key: pass --key or set HIPPOCAMPUS_KEY\n${USAGE}`);
  const params = new URLSearchParams();
  for (const [name, value] of [
    ["user_id", values.user],
    ["status", values.status],
    ["category", values.category],
    ["since", values.since],
    ["agent_id", values.agent],
  ] as const)
    if (value !== undefined) params.set(name, value);
  const base = (values.url ?? process.env.HIPPOCAMPUS_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, "");
  // npm runs scripts in the package root; INIT_CWD is where the person typed the command.
  const out = values.out === undefined ? null : resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  return { key, out, url: `${base}/v1/export${params.size > 0 ? `?${params}` : ""}` };
}

function progress(done: number, total: number, bytes: number, started: number, end = false): void {
  const width = 30;
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * width);
  const text = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round(share * 100)}% ${done}/${total} memories · ${(bytes / 1_048_576).toFixed(1)} MB · ${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (process.stderr.isTTY) process.stderr.write(`\r${text}${end ? "\n" : ""}`);
  else if (end || done % 1000 === 0) process.stderr.write(`${text}\n`);
}

/** Writes to the sink, waiting when it is full, so a slow reader never makes this buffer the export. */
function write(sink: NodeJS.WritableStream, chunk: Uint8Array): Promise<void> {
  return new Promise((done, reject) => {
    if (sink.write(chunk, (err) => (err ? reject(err) : undefined))) done();
    else sink.once("drain", done);
  });
}

/** Where the export goes: FILE.partial (renamed when complete) or stdout. */
function openSink(out: string | null): { sink: NodeJS.WritableStream; finish(ok: boolean): Promise<void> } {
  if (out === null) return { sink: process.stdout, finish: async () => {} };
  const partial = `${out}.partial`;
  const file: WriteStream = createWriteStream(partial);
  return {
    sink: file,
    finish: (ok) =>
      new Promise((done, reject) =>
        file.end(() => {
          try {
            if (ok) renameSync(partial, out);
            else rmSync(partial, { force: true });
            done();
          } catch (err) {
            reject(err);
          }
        }),
      ),
  };
}

async function main(): Promise<void> {
  const o = options();
  const res = await fetch(o.url, { headers: { authorization: `Bearer ${o.key}` } }).catch((err: Error) => {
    throw new CliError(`cannot reach ${o.url}: ${(err.cause as Error | undefined)?.message ?? err.message}`);
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CliError(`the server answered ${res.status}: ${body.message ?? res.statusText}`);
  }
  const { sink, finish } = openSink(o.out);
  const complete = await copy(res.body, sink, Number(res.headers.get("x-memory-count") ?? 0)).catch(async (err) => {
    await finish(false);
    throw err;
  });
  await finish(complete.ok);
  if (!complete.ok) throw new CliError("the export ended early (no end line): run it again");
  console.error(
    `export: ${complete.done} memories written${o.out ? ` to ${o.out}` : ""} (${complete.seconds.toFixed(1)} s).`,
  );
}

/** Copies the stream to the sink with progress; ok when its last line is the format's end line. */
async function copy(
  body: ReadableStream<Uint8Array>,
  sink: NodeJS.WritableStream,
  total: number,
): Promise<{ ok: boolean; done: number; seconds: number }> {
  const started = Date.now();
  const decoder = new TextDecoder();
  let done = 0;
  let bytes = 0;
  let tail = "";
  let last = "";
  for await (const chunk of body) {
    await write(sink, chunk);
    bytes += chunk.byteLength;
    const text = tail + decoder.decode(chunk, { stream: true });
    const lines = text.split("\n");
    tail = lines.pop() ?? "";
    for (const line of lines) {
      if (line.startsWith('{"type":"memory"')) done++;
      if (line !== "") last = line;
    }
    progress(done, total, bytes, started);
  }
  progress(done, total, bytes, started, true);
  return { ok: last.startsWith('{"type":"end"'), done, seconds: (Date.now() - started) / 1000 };
}

main().catch((err) => {
  console.error(`export: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
