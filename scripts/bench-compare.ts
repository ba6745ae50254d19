/**
 * @module scripts/bench-compare
 * Hippocampus beside the official MCP memory server, same run, same machine:
 *   npm run bench:compare -- --sizes 1000,10000,100000 [--json out.json] [--queries 200] [--edits 50] [--keep] [--var NAME=VALUE …]
 * Per size: the same generated memories (scripts/lib/bench-synthetic.ts) go into Hippocampus through
 * POST /v1/import (a fresh offline server, wrangler dev --local; first one warm-up request of
 * WARMUP_LINES lines for another user, timed as the cold figure, so ingest/s is the sustained rate
 * and not the isolate's compile and the first Durable Object start) and into @modelcontextprotocol/server-memory
 * over stdio (one entity per conversation, turns as observations: its own format); the same queries
 * — a two-word phrase of one known memory, which the reference's substring search can find too — go
 * to recall_memory (limit 10) and search_nodes. Prints one table with ratios: ingest/s, search p50/p95
 * (client round trip), peak RSS, recall@10 of the memory the query was made from (for the reference:
 * its conversation among the first 10 entities returned). Also prints the server's own figures
 * (Server-Timing: D1 round trips, statements and rows read per recall; rows read and written per
 * save_memory, from 20 saves after the recalls), update/delete p95, and the Server-Timing header of one recall.
 * Beside the figures through `wrangler dev` (the columns above, unchanged), clearly labelled extras:
 * the same queries sent to the Worker's own workerd socket, past wrangler's dev proxy ("no dev
 * proxy"); the floor — a GET of a missing path, p50, both ways; and workerd's CPU time per recall.
 * wrangler's local trace collector is off (scripts/lib/local-server.ts; --local-traces or
 * X_LOCAL_OBSERVABILITY=true keep it on).
 * Ports: BENCH_PORT / BENCH_INSPECTOR_PORT as for bench:recall.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { percentile } from "./lib/bench-metrics.ts";
import { entityOf, loadReference, type Reference, searchReference, startReference } from "./lib/bench-reference.ts";
import { connect, importMemories, recall, type Server } from "./lib/bench-run.ts";
import { ServerFigures, type ServerSummary } from "./lib/bench-server-figures.ts";
import { type PhraseQuery, phraseQueries, type SyntheticSet, syntheticMemories } from "./lib/bench-synthetic.ts";
import { parseVars } from "./lib/bench-target.ts";
import { localRuntimeEnv } from "./lib/local-runtime.ts";
import { startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const USAGE =
  "usage: npm run bench:compare -- --sizes N[,N…] [--json <out.json>] [--queries N] [--edits N] [--keep] [--local-traces] [--var NAME=VALUE …]";

const say = (text: string) => process.stderr.write(`compare: ${text}\n`);

function options() {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,10000" },
      json: { type: "string" },
      queries: { type: "string", default: "200" },
      edits: { type: "string", default: "50" },
      keep: { type: "boolean", default: false },
      "local-traces": { type: "boolean", default: false },
      var: { type: "string", multiple: true },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const sizes = values.sizes.split(",").filter(Boolean).map(Number);
  const queries = Number(values.queries);
  const edits = Number(values.edits);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < 100 || n > 1_000_000))
    throw new ScriptError(`--sizes takes sizes like 1000,10000,100000 (each 100-1000000)\n${USAGE}`);
  if (!Number.isInteger(queries) || queries < 1) throw new ScriptError("--queries must be a positive integer");
  if (!Number.isInteger(edits) || edits < 0) throw new ScriptError("--edits must be 0 or more");
  // wrangler's local trace collector: off unless asked for (scripts/lib/local-server.ts).
  const localTraces = values["local-traces"] || process.env.X_LOCAL_OBSERVABILITY === "true";
  return { sizes, json: values.json, queries, edits, keep: values.keep, localTraces, vars: parseVars(values.var) };
}

export interface SideFigures {
  ingestPerS: number;
  p50: number;
  p95: number;
  rssMb: number;
  recallAt10: number;
}

/** Extras beside the wrangler dev figures: past the dev proxy, the floor, CPU. */
interface ProxyFigures {
  /** Recall p50/p95 on the Worker's own socket (null when it could not be found). */
  direct: { p50: number; p95: number } | null;
  /** GET of a missing path, p50: through wrangler dev, and direct. */
  floorP50: number;
  floorDirectP50: number | null;
  /** workerd CPU (every process of the server: dev proxy + runtime) per recall through wrangler dev. */
  cpuMsPerRecall: number;
}

interface SizeResult {
  memories: number;
  hippocampus: SideFigures & {
    /** The warm-up request on the fresh server (another user): compile, first object start, first D1 writes. */
    coldIngestPerS: number;
    /** Peak RSS until the import ended (the rest of the run loads the index and recalls). */
    importRssMb: number;
    /** RSS when the run ended (after the edits): what the server holds with the store loaded, not a transient. */
    endRssMb: number;
    server: ServerSummary;
    updateP95: number;
    deleteP95: number;
    sampleTiming: string;
    proxy: ProxyFigures;
    /** Server-Timing of SAVES save_memory calls into the loaded store (D1 rows per save). */
    saves: ServerSummary;
  };
  reference: SideFigures;
}

/** Samples a process tree's RSS every 250 ms and keeps the largest single-process figure. */
function peakSampler(sample: () => number[]): { stop: () => number; sofar: () => number } {
  let peak = 0;
  const take = () => (peak = Math.max(peak, ...sample(), 0));
  const timer = setInterval(take, 250);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return peak;
    },
    sofar: () => {
      take();
      return peak;
    },
  };
}

/** Lines of the warm-up import: one request the size of the timed import's requests (MAX_LINES_PER_REQUEST). */
const WARMUP_LINES = 1000;

/** One request for a user of its own on the fresh server; memories per second of that cold request. */
async function warmUp(s: Server, set: SyntheticSet, n: number): Promise<number> {
  const lines = set.memories.slice(0, Math.min(WARMUP_LINES, n));
  const r = await importMemories(s, `compare-${n}-warmup`, lines);
  return lines.length / (r.ms / 1000);
}

async function editLatencies(s: Server, userId: string, ids: string[]): Promise<{ update: number; delete: number }> {
  const update: number[] = [];
  const remove: number[] = [];
  for (const [i, id] of ids.entries()) {
    let started = performance.now();
    const u = await s.client.callTool({
      name: "update_memory",
      arguments: { id, content: `Edited memory number ${i} about the quarterly planning review`, user_id: userId },
    });
    update.push(performance.now() - started);
    if (u.isError) throw new Error(`update_memory failed: ${JSON.stringify(u.content)}`);
    started = performance.now();
    const d = await s.client.callTool({ name: "delete_memory", arguments: { id, user_id: userId } });
    remove.push(performance.now() - started);
    if (d.isError) throw new Error(`delete_memory failed: ${JSON.stringify(d.content)}`);
  }
  return { update: percentile(update, 95), delete: percentile(remove, 95) };
}

/** save_memory calls made after the recalls: what one save costs the server (D1 rows read and written). */
const SAVES = 20;

async function saveFigures(s: Server, userId: string): Promise<ServerSummary> {
  const figures = new ServerFigures();
  for (let i = 0; i < SAVES; i++) {
    const r = await s.client.callTool({
      name: "save_memory",
      arguments: {
        content: `Benchmark save ${i}: the vendor review moved to room ${100 + i} on Thursday`,
        user_id: userId,
      },
    });
    if (r.isError) throw new Error(`save_memory failed: ${JSON.stringify(r.content)}`);
    figures.add(s.lastTiming());
  }
  return figures.summary();
}

/** p50 of `count` GETs of a path no route serves: what any request costs before the Worker's own work. */
async function floorP50(base: string, count = 100): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/no-such-path`);
    await res.arrayBuffer();
    ms.push(performance.now() - started);
  }
  return percentile(ms, 50);
}

/** The same recalls on the Worker's own socket, past wrangler's dev proxy. */
async function directRecalls(
  base: string | null,
  key: string,
  userId: string,
  queries: PhraseQuery[],
): Promise<{ p50: number; p95: number } | null> {
  if (!base) return null;
  const s = await connect(base, key);
  try {
    for (const q of queries.slice(0, 5)) await recall(s, userId, q.query);
    const latencies: number[] = [];
    for (const q of queries) latencies.push((await recall(s, userId, q.query)).ms);
    return { p50: percentile(latencies, 50), p95: percentile(latencies, 95) };
  } finally {
    await s.client.close().catch(() => undefined);
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function runHippocampus(
  set: SyntheticSet,
  queries: PhraseQuery[],
  o: { edits: number; keep: boolean; localTraces: boolean; vars: Record<string, string> },
): Promise<SizeResult["hippocampus"]> {
  const { edits, keep, localTraces, vars } = o;
  const n = set.memories.length;
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-compare-"));
  setLocalPersistDir(dir);
  say("hippocampus: migrating a fresh local database and starting wrangler dev");
  applyMigrations("local");
  const { key } = await createKey(
    { scope: "app", name: "bench-compare", account: "bench", label: "bench:compare" },
    "local",
  );
  const server = await startLocalServer(dir, { localTraces, vars });
  const peak = peakSampler(() => server.workerdRss());
  let s: Server | null = null;
  try {
    s = await connect(server.base, key);
    const userId = `compare-${n}`;
    say("hippocampus: warm-up import (another user, not counted in ingest/s)");
    const coldIngestPerS = await warmUp(s, set, n);
    say(`hippocampus: importing ${n}`);
    const imported = await importMemories(s, userId, set.memories);
    const importRssMb = peak.sofar() / 1048576;
    say(`hippocampus: ${queries.length} recalls`);
    const idOf = new Map([...imported.externalOf].map(([id, external]) => [external, id]));
    for (const q of queries.slice(0, 5)) await recall(s, userId, q.query); // warm-up: load the object and its index
    const latencies: number[] = [];
    const figures = new ServerFigures();
    let hits = 0;
    const cpuBefore = sum(server.workerdCpuMs());
    for (const q of queries) {
      const r = await recall(s, userId, q.query);
      latencies.push(r.ms);
      figures.add(r.server);
      if (r.ids.slice(0, 10).includes(idOf.get(set.memories[q.memory].externalId) ?? "")) hits++;
    }
    const cpuMsPerRecall = (sum(server.workerdCpuMs()) - cpuBefore) / queries.length;
    const sampleTiming = (await recallHeader(s, userId, queries[0].query)) ?? "";
    const directBase = await server.directBase();
    say(
      directBase
        ? `hippocampus: ${queries.length} recalls past the dev proxy (${directBase})`
        : "no direct socket found",
    );
    const proxy: ProxyFigures = {
      direct: await directRecalls(directBase, key, userId, queries),
      floorP50: await floorP50(server.base),
      floorDirectP50: directBase ? await floorP50(directBase) : null,
      cpuMsPerRecall,
    };
    const editIds = queries.slice(0, edits).map((q) => idOf.get(set.memories[q.memory].externalId)!);
    say(`hippocampus: ${editIds.length} updates and deletes`);
    const edit = await editLatencies(s, userId, [...new Set(editIds)]);
    say(`hippocampus: ${SAVES} saves`);
    const saves = await saveFigures(s, userId);
    return {
      saves,
      ingestPerS: n / (imported.ms / 1000),
      coldIngestPerS,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      rssMb: peak.stop() / 1048576,
      importRssMb,
      endRssMb: Math.max(0, ...server.workerdRss()) / 1048576,
      recallAt10: hits / queries.length,
      server: figures.summary(),
      updateP95: edit.update,
      deleteP95: edit.delete,
      sampleTiming,
      proxy,
    };
  } finally {
    peak.stop();
    await s?.client.close().catch(() => undefined);
    await server.stop();
    if (keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** The raw Server-Timing header of one recall, for the breakdown in docs/benchmarks.md. */
async function recallHeader(s: Server, userId: string, query: string): Promise<string | null> {
  const res = await fetch(`${s.base}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "recall_memory", arguments: { query, limit: 10, user_id: userId } },
    }),
  });
  await res.arrayBuffer();
  return res.headers.get("server-timing");
}

async function runReference(set: SyntheticSet, queries: PhraseQuery[]): Promise<SideFigures> {
  const ref: Reference = await startReference();
  try {
    say(`server-memory: loading ${set.memories.length}`);
    const ms = await loadReference(ref, set.memories);
    say(`server-memory: ${queries.length} searches`);
    for (const q of queries.slice(0, 5)) await searchReference(ref, q.query);
    const latencies: number[] = [];
    let hits = 0;
    for (const q of queries) {
      const r = await searchReference(ref, q.query);
      latencies.push(r.ms);
      if (r.entities.slice(0, 10).includes(entityOf(set.memories[q.memory]))) hits++;
    }
    return {
      ingestPerS: set.memories.length / (ms / 1000),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      rssMb: ref.rss().peak / 1048576,
      recallAt10: hits / queries.length,
    };
  } finally {
    await ref.stop();
  }
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : "—");

function printTable(rows: SizeResult[]): void {
  const head = ["memories", "metric", "hippocampus", "server-memory", "ratio H/R"];
  const widths = [9, 24, 14, 15, 10];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" ");
  const out = [
    "",
    "Hippocampus vs @modelcontextprotocol/server-memory — same memories, same queries, same run",
    line(head),
  ];
  for (const r of rows) {
    const h = r.hippocampus;
    const f = r.reference;
    const metric = (name: string, a: number, b: number, fmt: (x: number) => string) =>
      out.push(line([String(r.memories), name, fmt(a), fmt(b), ratio(a, b)]));
    metric("ingest /s (sustained)", h.ingestPerS, f.ingestPerS, (x) => x.toFixed(0));
    out.push(line([String(r.memories), "ingest /s, cold 1st req", h.coldIngestPerS.toFixed(0), "—", "—"]));
    metric("search p50 (ms)", h.p50, f.p50, (x) => x.toFixed(1));
    metric("search p95 (ms)", h.p95, f.p95, (x) => x.toFixed(1));
    if (h.proxy.direct) {
      metric("  p50, no dev proxy", h.proxy.direct.p50, f.p50, (x) => x.toFixed(1));
      metric("  p95, no dev proxy", h.proxy.direct.p95, f.p95, (x) => x.toFixed(1));
    }
    metric("peak RSS (MB)", h.rssMb, f.rssMb, (x) => x.toFixed(0));
    metric("recall@10", h.recallAt10, f.recallAt10, (x) => x.toFixed(3));
  }
  out.push("", "Hippocampus server side (Server-Timing) and edits");
  for (const r of rows) {
    const s = r.hippocampus.server;
    out.push(
      `${String(r.memories).padEnd(9)} recall server p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms; D1 sequential ${s.d1SequentialMean.toFixed(2)}/call (max ${s.d1SequentialMax}), ${s.d1QueriesMean.toFixed(1)} statements; update p95 ${r.hippocampus.updateP95.toFixed(1)} ms, delete p95 ${r.hippocampus.deleteP95.toFixed(1)} ms`,
      `          recall phases p50 / p95 (ms): ${Object.entries(s.phases)
        .map(([name, p]) => `${name} ${p.p50.toFixed(1)} / ${p.p95.toFixed(1)}`)
        .join(", ")} (d1-sql: D1's own execution time)`,
      `${"".padEnd(9)} D1 rows per recall: ${rowsLine(s)}; per save_memory: ${rowsLine(r.hippocampus.saves)}`,
      `${"".padEnd(9)} workerd peak RSS ${r.hippocampus.importRssMb.toFixed(0)} MB until the import ended, ${r.hippocampus.rssMb.toFixed(0)} MB over the run (index load, recalls, edits); ${r.hippocampus.endRssMb.toFixed(0)} MB at its end`,
      `${"".padEnd(9)} one recall: ${r.hippocampus.sampleTiming}`,
      `${"".padEnd(9)} floor (GET of a missing path) p50 ${r.hippocampus.proxy.floorP50.toFixed(1)} ms through wrangler dev, ${r.hippocampus.proxy.floorDirectP50?.toFixed(1) ?? "—"} ms past its proxy; workerd CPU ${r.hippocampus.proxy.cpuMsPerRecall.toFixed(1)} ms per recall (dev proxy + runtime)`,
    );
  }
  console.log(out.join("\n"));
}

/** "412 read (max 530), 0.0 written" from D1's meta, as Server-Timing reports it. */
function rowsLine(s: ServerSummary): string {
  if (s.d1RowsReadMean === null) return "not reported";
  return `${s.d1RowsReadMean.toFixed(0)} read (max ${s.d1RowsReadMax}), ${(s.d1RowsWrittenMean ?? 0).toFixed(1)} written`;
}

function toJson(rows: SizeResult[]) {
  const side = (x: SideFigures) => ({
    ingest_per_s: x.ingestPerS,
    p50: x.p50,
    p95: x.p95,
    rss_mb: x.rssMb,
    recall_at_10: x.recallAt10,
  });
  return {
    sizes: rows.map((r) => ({
      memories: r.memories,
      hippocampus: {
        ...side(r.hippocampus),
        ingest_cold_per_s: r.hippocampus.coldIngestPerS,
        import_rss_mb: r.hippocampus.importRssMb,
        end_rss_mb: r.hippocampus.endRssMb,
        server_p50: r.hippocampus.server.p50,
        server_p95: r.hippocampus.server.p95,
        d1_sequential_per_recall: r.hippocampus.server.d1SequentialMean,
        d1_rows_read_per_recall: r.hippocampus.server.d1RowsReadMean,
        d1_rows_read_per_recall_max: r.hippocampus.server.d1RowsReadMax,
        d1_rows_read_per_save: r.hippocampus.saves.d1RowsReadMean,
        d1_rows_written_per_save: r.hippocampus.saves.d1RowsWrittenMean,
        update_p95: r.hippocampus.updateP95,
        delete_p95: r.hippocampus.deleteP95,
        direct_p50: r.hippocampus.proxy.direct?.p50 ?? null,
        direct_p95: r.hippocampus.proxy.direct?.p95 ?? null,
        floor_p50: r.hippocampus.proxy.floorP50,
        floor_direct_p50: r.hippocampus.proxy.floorDirectP50,
        workerd_cpu_ms_per_recall: r.hippocampus.proxy.cpuMsPerRecall,
      },
      reference: side(r.reference),
    })),
  };
}

async function main(): Promise<void> {
  const o = options();
  const rows: SizeResult[] = [];
  for (const n of o.sizes) {
    const set = syntheticMemories(n);
    const queries = phraseQueries(set, o.queries);
    const reference = await runReference(set, queries);
    const hippocampus = await runHippocampus(set, queries, o);
    rows.push({ memories: n, hippocampus, reference });
    // The table so far after each size: a long run (100k) shows its smaller sizes at once.
    if (rows.length < o.sizes.length) printTable(rows);
  }
  printTable(rows);
  console.log(`\nwrangler's local trace collector: ${o.localTraces ? "on" : "off"}`);
  if (Object.keys(o.vars).length) console.log(`config vars: ${JSON.stringify(o.vars)}`);
  const flags = localRuntimeEnv(process.env).MINIFLARE_WORKERD_V8_FLAGS;
  console.log(`local runtime's V8 flags (MINIFLARE_WORKERD_V8_FLAGS): ${flags ? flags : "none (V8's defaults)"}`);
  if (o.json) {
    writeFileSync(o.json, `${JSON.stringify(toJson(rows), null, 2)}\n`);
    say(`wrote ${o.json}`);
  }
}

main().catch((err) => {
  console.error(
    `compare: ${err instanceof ScriptError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  process.exit(1);
});
