/**
 * @module scripts/bench-export
 * `npm run bench:export [-- --memories 100000] [--passes 2] [--limits paid|free] [--keep]` (BENCH_PORT / BENCH_INSPECTOR_PORT pin the ports): does GET /v1/export stream in bounded
 * memory? Starts the offline server on a fresh state directory, imports N memories for one user
 * through POST /v1/import (the public path), then streams their export while sampling the
 * resident memory (VmRSS) of the server's workerd processes every 100 ms, and prints RSS before,
 * the peak during and after the export beside the export's size. Flat means the peak grows by far
 * less than the export's size (the Worker holds one page at a time, never the file). The server runs
 * under PLATFORM_LIMITS (`--limits`, default paid): an export larger than one invocation may read
 * comes in parts, followed through their `next` cursors as `npm run export` does; the figures say how
 * many parts, how many memories each carried and how long each took.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { say, withBenchServer } from "./lib/bench-server.ts";
import { connectInspector, type WorkerInspector } from "./lib/inspector-heap.ts";
import { freePort } from "./lib/local-server.ts";
import { failureText, ScriptError, targetArgs, wrangler } from "./lib/wrangler-d1.ts";

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const USER = "bench-export";
/** The app key's end users live in its namespace (memory/owner-address.ts). */
const NAMESPACE = "app:bench-export";

const TOPICS = ["tea", "hiking", "piano", "Rust", "Berlin", "sourdough", "chess", "cycling", "Kyoto", "jazz"];
const CATEGORIES = ["preference", "personal", "work", "project", "health"];

/** One SQL literal; the values here are generated, never user text. */
const lit = (v: string | number) => (typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`);

/** SQL text of a JSON array of the words above, for json_extract by index. */
const jsonWords = (words: string[]) => lit(JSON.stringify(words));

/**
 * The SQL seeding memories [from, to) and their create events: rows generated inside SQLite by a
 * recursive CTE (a varied sentence of ~100 bytes per index), so a million rows are a few short statements
 * instead of a half-gigabyte file of literals.
 */
function seedSql(from: number, to: number): string[] {
  const day = "(1704067200000 + (i % 700) * 86400000)";
  const topic = `json_extract(${jsonWords(TOPICS)}, '$[' || (i % ${TOPICS.length}) || ']')`;
  const category = `json_extract(${jsonWords(CATEGORIES)}, '$[' || (i % ${CATEGORIES.length}) || ']')`;
  const owner = `account_id = 'bench' AND namespace = ${lit(NAMESPACE)} AND user_id = ${lit(USER)}`;
  const ids = `id >= '01BENCH' || printf('%019d', ${from}) AND id < '01BENCH' || printf('%019d', ${to})`;
  return [
    `WITH RECURSIVE r(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM r WHERE i + 1 < ${to})
INSERT INTO memories (id, account_id, namespace, user_id, content, category, tags, content_hash, created_at, updated_at)
SELECT '01BENCH' || printf('%019d', i), 'bench', ${lit(NAMESPACE)}, ${lit(USER)},
  'Memory ' || i || ': the user mentioned ' || ${topic} || ' on ' || strftime('%Y-%m-%d', ${day} / 1000, 'unixepoch') || ' and said it matters to them (note ' || (i * 7919) || ').',
  ${category}, json_array(lower(${topic})), 'hash-' || i, ${day}, ${day} FROM r;`,
    `INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, after, actor, at)
SELECT id, account_id, namespace, user_id, 'create', json_object('id', id, 'content', content, 'category', category, 'status', 'active', 'createdAt', created_at), 'key:bench', created_at
FROM memories WHERE ${owner} AND ${ids} ORDER BY id;`,
  ];
}

/**
 * Seeds n memories and their create events straight into the local D1 before the server starts:
 * the benchmark measures the export, and 100,000 imports through the Durable Object would take
 * most of an hour on a shared machine. Rows are what an import writes (status, tags, hash, times).
 */
function seed(dir: string, n: number): void {
  const file = join(dir, "seed.sql");
  const out: string[] = [];
  for (let from = 0; from < n; from += 100_000) out.push(...seedSql(from, Math.min(n, from + 100_000)));
  writeFileSync(file, out.join("\n"));
  const run = wrangler(["d1", "execute", "DB", ...targetArgs("local"), "--file", file, "--yes"]);
  if (run.status !== 0) throw new ScriptError(`seeding failed: ${failureText(run)}`);
}

const total = (rss: number[]) => rss.reduce((a, b) => a + b, 0);

/** Bytes of the local D1's SQLite files under the state directory. */
function dbBytes(dir: string): number {
  let sum = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.includes("d1") && /\.sqlite/.test(e.name)) sum += statSync(p).size;
    }
  };
  walk(dir);
  return sum;
}

/**
 * One export, with workerd's RSS before, at each quarter of the stream, at its peak and after, and
 * the Worker's own JS heap (scripts/lib/inspector-heap.ts): before, the most in use while
 * streaming, and after.
 */
async function measure(
  base: string,
  key: string,
  n: number,
  rss: () => number,
  inspector: WorkerInspector,
  pass: number,
): Promise<void> {
  const heapBefore = await inspector.heap();
  const before = rss();
  let peak = before;
  let heapPeak = heapBefore.usedBytes;
  let sampling = false;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss());
    if (sampling) return;
    sampling = true;
    inspector
      .heap()
      .then((h) => {
        heapPeak = Math.max(heapPeak, h.usedBytes);
      })
      .catch(() => undefined)
      .finally(() => {
        sampling = false;
      });
  }, 100);
  const started = performance.now();
  let bytes = 0;
  let newlines = 0;
  const quarters: string[] = [];
  const partMs: number[] = [];
  const partMemories: number[] = [];
  let cursor: string | null = null;
  do {
    const partStarted = performance.now();
    const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const res = await fetch(`${base}/v1/export?user_id=${USER}${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!res.ok || !res.body) throw new ScriptError(`export answered ${res.status}`);
    const before = newlines;
    let tail = "";
    cursor = null;
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) newlines++;
      if (newlines >= ((quarters.length + 1) * n) / 4 && quarters.length < 3) quarters.push(mb(rss()));
      tail = (tail + new TextDecoder().decode(chunk)).slice(-4096);
    }
    const last = tail.trimEnd().split("\n").pop() ?? "";
    if (last.startsWith('{"type":"next"')) {
      cursor = (JSON.parse(last) as { cursor: string }).cursor;
      newlines--; // the next line is not part of the export
    }
    partMs.push(performance.now() - partStarted);
    // Progress on stderr, so a run stopped by a time limit still says how far it got and how fast.
    const elapsed = (performance.now() - started) / 1000;
    say(
      `part ${partMs.length}: ${newlines - 1} memories so far in ${elapsed.toFixed(0)} s (${Math.round((newlines - 1) / elapsed)}/s)`,
    );
    // Lines of memories only: the first part also has the header, the last the end line.
    partMemories.push(newlines - before - (before === 0 ? 1 : 0) - (cursor === null ? 1 : 0));
  } while (cursor !== null);
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, rss());
  await new Promise((r) => setTimeout(r, 2000));
  const after = rss();
  const heapAfter = await inspector.heap();
  const memories = newlines - 2;
  if (memories !== n) throw new ScriptError(`exported ${memories} memories, expected ${n}`);
  console.log(
    `export pass ${pass}: ${memories} memories, ${mb(bytes)} MB in ${(ms / 1000).toFixed(1)} s (${Math.round(memories / (ms / 1000))} memories/s)`,
  );
  console.log(
    `  workerd RSS: before ${mb(before)} MB · at 25/50/75%: ${quarters.join(" / ")} MB · peak ${mb(peak)} MB (+${mb(peak - before)} MB) · after ${mb(after)} MB`,
  );
  console.log(`  peak growth / export size: ${((peak - before) / bytes).toFixed(3)}`);
  const meanMs = partMs.reduce((a, b) => a + b, 0) / partMs.length;
  console.log(
    `  parts: ${partMs.length} · memories per part: first ${partMemories[0]}, max ${Math.max(...partMemories)} · ms per part: mean ${meanMs.toFixed(0)}, max ${Math.max(...partMs).toFixed(0)}`,
  );
  console.log(
    `  Worker JS heap in use: before ${mb(heapBefore.usedBytes)} MB · peak ${mb(heapPeak)} MB (+${mb(heapPeak - heapBefore.usedBytes)} MB) · after ${mb(heapAfter.usedBytes)} MB`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      memories: { type: "string" },
      keep: { type: "boolean" },
      passes: { type: "string" },
      limits: { type: "string" },
    },
  });
  const limits = values.limits ?? "paid";
  if (limits !== "paid" && limits !== "free") throw new ScriptError("--limits must be paid or free");
  const n = Number(values.memories ?? 100_000);
  if (!Number.isInteger(n) || n < 1) throw new ScriptError("--memories must be a positive integer");
  const passes = Number(values.passes ?? 2);
  if (!Number.isInteger(passes) || passes < 1 || passes > 10) throw new ScriptError("--passes must be 1 to 10");
  const inspectorPort = Number(process.env.BENCH_INSPECTOR_PORT) || (await freePort());
  const prepare = (dir: string) => {
    say(`seeding ${n} memories into D1…`);
    seed(dir, n);
  };
  const vars = { PLATFORM_LIMITS: limits };
  const options = { keep: values.keep, keyName: "bench-export", timeoutMs: 180_000, inspectorPort, prepare, vars };
  say(`PLATFORM_LIMITS=${limits}`);
  await withBenchServer(options, async ({ base, key, dir, rss }) => {
    let inspector: WorkerInspector | null = null;
    try {
      await fetch(`${base}/v1/export?user_id=${USER}&status=deleted`, {
        headers: { authorization: `Bearer ${key}` },
      }).then((r) => r.arrayBuffer()); // warm: the first request compiles the Worker
      await new Promise((r) => setTimeout(r, 2000));
      say(`D1 database on disk: ${mb(dbBytes(dir))} MB`);
      // Several passes: the first also pulls the database into the local D1's page cache (same process).
      inspector = await connectInspector(inspectorPort);
      for (let pass = 1; pass <= passes; pass++) await measure(base, key, n, () => total(rss()), inspector, pass);
    } finally {
      inspector?.close();
    }
  });
}

main().catch((err) => {
  console.error(`bench:export: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
