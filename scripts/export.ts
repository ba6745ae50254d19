/**
 * @module scripts/export
 * `npm run export -- --user <id> [--key <key>] [--url <base>] [--status s] [--category c] [--since iso] [--agent id] --out memories.jsonl`
 * Streams GET /v1/export (docs/export-format.md) to FILE (or stdout without --out), with a progress
 * bar on stderr. `--out` writes FILE.partial and renames it to FILE only once the format's end line
 * has arrived, so an interrupted export never looks complete; a relative FILE is taken from the
 * directory `npm run` was started in. (Redirecting stdout needs `npm run --silent export`, or npm's
 * own banner lands in the file.) With
 * a user key, --user may be left out (the key names its user); an app key needs it. The key
 * comes from --key or HIPPOCAMPUS_KEY, the server from --url or HIPPOCAMPUS_URL, else the running
 * `npm run dev` (its URL in .wrangler/dev-url, scripts/lib/dev-url.ts), else http://127.0.0.1:8787. Exits non-zero
 * when the stream ends without the format's last line (an incomplete file). An export larger than
 * one server invocation may read comes in parts: each but the last ends with a `next` line, which
 * this follows (`?cursor=`) without writing it, so the file is one export.
 */
import { createWriteStream, renameSync, rmSync, type WriteStream } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { authHint, serverUrl } from "./lib/dev-url.ts";

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
  const base = serverUrl(values.url ?? process.env.HIPPOCAMPUS_URL).url.replace(/\/+$/, "");
  // npm runs scripts in the package root; INIT_CWD is where the person typed the command.
  const out = values.out === undefined ? null : resolve(process.env.INIT_CWD ?? process.cwd(), values.out);
  return { key, out, base, params };
}

/** The next part's URL: the cursor carries the filters; user_id still names whose memory an app key reads. */
function partUrl(o: { base: string; params: URLSearchParams }, cursor: string | null): string {
  const params = cursor === null ? o.params : new URLSearchParams({ cursor });
  const user = o.params.get("user_id");
  if (cursor !== null && user !== null) params.set("user_id", user);
  return `${o.base}/v1/export${params.size > 0 ? `?${params}` : ""}`;
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

async function fetchPart(url: string, key: string): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } }).catch((err: Error) => {
    throw new CliError(`cannot reach ${url}: ${(err.cause as Error | undefined)?.message ?? err.message}`);
  });
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CliError(`${url} answered ${res.status}: ${body.message ?? res.statusText}${authHint(res.status)}`);
  }
  return res as Response & { body: ReadableStream<Uint8Array> };
}

interface Tally {
  done: number;
  bytes: number;
  last: string;
  total: number;
  started: number;
}

/** Writes one part's lines to the sink (all but its `next` line) and returns the cursor that line carries, if any. */
async function copyPart(
  body: ReadableStream<Uint8Array>,
  sink: NodeJS.WritableStream,
  t: Tally,
): Promise<string | null> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let tail = "";
  let next: string | null = null;
  for await (const chunk of body) {
    const lines = (tail + decoder.decode(chunk, { stream: true })).split("\n");
    tail = lines.pop() ?? "";
    const kept: string[] = [];
    for (const line of lines) {
      if (line.startsWith('{"type":"next"')) {
        next = (JSON.parse(line) as { cursor: string }).cursor;
        continue;
      }
      if (line.startsWith('{"type":"memory"')) t.done++;
      if (line !== "") t.last = line;
      kept.push(`${line}\n`);
    }
    const out = encoder.encode(kept.join(""));
    if (out.byteLength > 0) await write(sink, out);
    t.bytes += out.byteLength;
    progress(t.done, t.total, t.bytes, t.started);
  }
  return next;
}

async function main(): Promise<void> {
  const o = options();
  const t: Tally = { done: 0, bytes: 0, last: "", total: 0, started: Date.now() };
  const { sink, finish } = openSink(o.out);
  let cursor: string | null = null;
  let parts = 0;
  try {
    do {
      const res = await fetchPart(partUrl(o, cursor), o.key);
      if (parts === 0) t.total = Number(res.headers.get("x-memory-count") ?? 0);
      cursor = await copyPart(res.body, sink, t);
      parts++;
    } while (cursor !== null);
  } catch (err) {
    await finish(false);
    throw err;
  }
  progress(t.done, t.total, t.bytes, t.started, true);
  const complete = t.last.startsWith('{"type":"end"');
  await finish(complete);
  if (!complete) throw new CliError("the export ended early (no end line): run it again");
  const seconds = ((Date.now() - t.started) / 1000).toFixed(1);
  const where = o.out ? ` to ${o.out}` : "";
  console.error(`export: ${t.done} memories written${where} in ${parts} part${parts === 1 ? "" : "s"} (${seconds} s).`);
}

main().catch((err) => {
  console.error(`export: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
