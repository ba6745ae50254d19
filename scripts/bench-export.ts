/**
 * @module scripts/bench-export
 * `npm run bench:export [-- --memories 100000] [--keep]` (BENCH_PORT / BENCH_INSPECTOR_PORT pin the ports): does GET /v1/export stream in bounded
 * memory? Starts the offline server on a fresh state directory, imports N memories for one user
 * through POST /v1/import (the public path), then streams their export while sampling the
 * resident memory (VmRSS) of the server's workerd processes every 100 ms, and prints RSS before,
 * the peak during and after the export beside the export's size. Flat means the peak grows by far
 * less than the export's size (the Worker holds one page at a time, never the file).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { chunkLines, postImport, type SourceLine } from "./lib/import-client.ts";
import { startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const say = (text: string) => process.stderr.write(`bench:export: ${text}\n`);
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const USER = "bench-export";

const TOPICS = ["tea", "hiking", "piano", "Rust", "Berlin", "sourdough", "chess", "cycling", "Kyoto", "jazz"];
const CATEGORIES = ["preference", "personal", "work", "project", "health"];

/** A varied sentence per index, ~100-160 bytes, so the export has a realistic size. */
function memoryLine(i: number): string {
  const topic = TOPICS[i % TOPICS.length];
  const day = new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
  return JSON.stringify({
    content: `Memory ${i}: the user mentioned ${topic} on ${day} and said it matters to them (note ${i * 7919}).`,
    category: CATEGORIES[i % CATEGORIES.length],
    tags: [topic.toLowerCase()],
    external_id: `bench-${i}`,
    created_at: `${day}T12:00:00Z`,
  });
}

async function seed(base: string, key: string, n: number): Promise<void> {
  const lines: SourceLine[] = Array.from({ length: n }, (_, i) => ({
    fileLine: i + 1,
    text: memoryLine(i),
    source: null,
  }));
  let done = 0;
  for (const chunk of chunkLines(lines)) {
    const r = await postImport(base, key, chunk, { user: USER });
    if (!r.ok) throw new ScriptError(`import failed: ${r.message}`);
    done += chunk.length;
    say(`imported ${done}/${n}`);
  }
}

const total = (rss: number[]) => rss.reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      memories: { type: "string" },
      keep: { type: "boolean" },
    },
  });
  const n = Number(values.memories ?? 100_000);
  if (!Number.isInteger(n) || n < 1) throw new ScriptError("--memories must be a positive integer");
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-export-"));
  setLocalPersistDir(dir);
  applyMigrations("local");
  const { key } = await createKey(
    { scope: "app", name: "bench-export", account: "bench", label: "bench:export" },
    "local",
  );
  const server = await startLocalServer(dir, { timeoutMs: 180_000 });
  try {
    await seed(server.base, key, n);
    await new Promise((r) => setTimeout(r, 2000));
    const before = total(server.workerdRss());
    let peak = before;
    const timer = setInterval(() => {
      peak = Math.max(peak, total(server.workerdRss()));
    }, 100);
    const started = performance.now();
    const res = await fetch(`${server.base}/v1/export?user_id=${USER}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!res.ok || !res.body) throw new ScriptError(`export answered ${res.status}`);
    let bytes = 0;
    let newlines = 0;
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) newlines++;
    }
    const ms = performance.now() - started;
    clearInterval(timer);
    peak = Math.max(peak, total(server.workerdRss()));
    await new Promise((r) => setTimeout(r, 2000));
    const after = total(server.workerdRss());
    const memories = newlines - 2;
    if (memories !== n) throw new ScriptError(`exported ${memories} memories, expected ${n}`);
    console.log(
      `export: ${memories} memories, ${mb(bytes)} MB in ${(ms / 1000).toFixed(1)} s (${Math.round(memories / (ms / 1000))} memories/s)`,
    );
    console.log(
      `workerd RSS: before ${mb(before)} MB · peak during ${mb(peak)} MB (+${mb(peak - before)} MB) · after ${mb(after)} MB`,
    );
    console.log(`peak growth / export size: ${((peak - before) / bytes).toFixed(3)}`);
  } finally {
    await server.stop();
    if (values.keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:export: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
