/**
 * @module scripts/export
 * `npm run export -- --user <id> [--key <key>] [--url <base>] [--status s] [--category c] [--since iso] [--agent id] > memories.jsonl`
 * Streams GET /v1/export (docs/export-format.md) to stdout, with a progress bar on stderr. With
 * a user key, --user may be left out (the key names its user); an app key needs it. The key
 * comes from --key or HIPPOCAMPUS_KEY, the server from --url or HIPPOCAMPUS_URL. Exits non-zero
 * when the stream ends without the format's last line (an incomplete file).
 */
import { parseArgs } from "node:util";

class CliError extends Error {}

const USAGE =
  "usage: npm run export -- [--user <id>] [--key <key>] [--url http://127.0.0.1:8787] [--status all|active|…] [--category c] [--since 2025-01-01] [--agent <id>] > memories.jsonl";

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
  return { key, url: `${base}/v1/export${params.size > 0 ? `?${params}` : ""}` };
}

function progress(done: number, total: number, bytes: number, started: number, end = false): void {
  const width = 30;
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * width);
  const text = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round(share * 100)}% ${done}/${total} memories · ${(bytes / 1_048_576).toFixed(1)} MB · ${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (process.stderr.isTTY) process.stderr.write(`\r${text}${end ? "\n" : ""}`);
  else if (end || done % 1000 === 0) process.stderr.write(`${text}\n`);
}

/** Writes to stdout, waiting when the pipe is full, so a slow reader never makes this buffer the export. */
function write(chunk: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.stdout.write(chunk, (err) => (err ? reject(err) : undefined))) resolve();
    else process.stdout.once("drain", resolve);
  });
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
  const total = Number(res.headers.get("x-memory-count") ?? 0);
  const started = Date.now();
  const decoder = new TextDecoder();
  let done = 0;
  let bytes = 0;
  let tail = "";
  let last = "";
  for await (const chunk of res.body) {
    await write(chunk);
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
  if (!last.startsWith('{"type":"end"')) throw new CliError("the export ended early (no end line): run it again");
  console.error(`export: ${done} memories written (${((Date.now() - started) / 1000).toFixed(1)} s).`);
}

main().catch((err) => {
  console.error(`export: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
