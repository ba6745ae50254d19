/**
 * @module scripts/bench-cpu
 * `npm run bench:cpu [-- --memories 10000] [--limits free|paid] [--rounds 3] [--import-lines 1,1000] [--lifecycle-calls 5] [--keep]`
 * (BENCH_PORT / BENCH_INSPECTOR_PORT pin the ports): what CPU does one step of the work that spans
 * invocations cost, per memory? Seeds two owners' memories and create events straight into the local
 * D1 (scripts/lib/bench-seed.ts), starts the offline server with two shards under PLATFORM_LIMITS,
 * and measures each step on the Worker's own socket (past wrangler's dev proxy), one request at a time:
 *   export  — the first part of GET /v1/export (a whole part: PLATFORM_LIMITS sizes it);
 *   import  — POST /v1/import of n lines, with `dry_run=true` (the Worker's parse and validation
 *             only) and for real (the Worker, then the user's Durable Object writing them);
 *   move    — each step of POST /admin/shards/move moving the seeded owner to DB_SHARD_1, beside
 *             steps that carry nothing (an owner with no rows crossing whole): CPU per row read
 *             (scripts/lib/bench-cpu-move.ts). Under `free` its steps are sized by that figure, too
 *             small to measure it again: `--limits paid` sizes them by D1 alone;
 *   lifecycle — regenerate_embeddings over MCP on the export owner (its seeded rows are unindexed,
 *             so each call runs index-repair batches in the Durable Object).
 * `--requests [N]` measures instead one MCP request of each kind N times (default 30) on a warm isolate
 * (scripts/lib/bench-cpu-requests.ts): p50 / p95 of isolate CPU and wall time per kind, the figures
 * `npm run cost` and the free profile (docs/deploying.md) read.
 * CPU is read two ways: V8's CPU profile of the Worker's isolate (scripts/lib/inspector-heap.ts;
 * the isolate runs the Worker and its Durable Objects, not the local D1), and the workerd processes'
 * CPU from /proc (which includes the local D1's SQLite, work D1's own servers do deployed; 10 ms
 * ticks). Deployed CPU is not measured here: workerd enforces and reports none (docs/reliability.md,
 * "CPU time").
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { moveRowCost } from "./lib/bench-cpu-move.ts";
import { requestKinds } from "./lib/bench-cpu-requests.ts";
import { connect, type Server } from "./lib/bench-run.ts";
import { type SeedOwner, seedOwner } from "./lib/bench-seed.ts";
import { say } from "./lib/bench-server.ts";
import { profileCpu } from "./lib/cpu-profile.ts";
import { connectInspector, type WorkerInspector } from "./lib/inspector-heap.ts";
import { freePort, type LocalServer, startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const KEY_NAME = "bench-cpu";
/** The app key's end users live in its namespace (memory/owner-address.ts). */
const EXPORTER: SeedOwner = {
  account: "bench",
  namespace: `app:${KEY_NAME}`,
  user: "exporter",
  idPrefix: "01EXPORT",
  ftsBlock: null,
};
const MOVER: SeedOwner = { account: "bench-move", namespace: "user", user: "mover", idPrefix: "01MOVE", ftsBlock: 1 };
/** Placed in the directory with no rows: its crossing is a move step's own cost. */
const EMPTY_MOVER: SeedOwner = {
  account: "bench-move-empty",
  namespace: "user",
  user: "none",
  idPrefix: "01NONE",
  ftsBlock: null,
};
/** Rows a move step must read for its CPU above a step carrying nothing to be put down to them. */
const SMALL_MOVE_STEP = 2_000;
/** V8's sampling interval: fine enough for steps of a few ms, coarse enough to cost the isolate little. */
const INTERVAL_US = 500;

interface Measured {
  /** CPU of the Worker's isolate (V8 profile), ms. */
  isolateMs: number;
  /** Of it, garbage collection, ms. */
  gcMs: number;
  /** CPU of every workerd process of the server (/proc), ms. */
  processMs: number;
  wallMs: number;
}

interface Rig {
  server: LocalServer;
  base: string;
  key: string;
  secret: string;
  inspector: WorkerInspector;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)];
};

/** Runs `work` with the isolate profiled and the processes' CPU read before and after. */
async function measure<T>(rig: Rig, work: () => Promise<T>): Promise<{ value: T; cpu: Measured }> {
  await rig.inspector.startProfile(INTERVAL_US);
  const before = sum(rig.server.workerdCpuMs());
  const started = performance.now();
  const value = await work();
  const wallMs = performance.now() - started;
  const processMs = sum(rig.server.workerdCpuMs()) - before;
  const p = profileCpu(await rig.inspector.stopProfile(), INTERVAL_US);
  return { value, cpu: { isolateMs: p.busyMs, gcMs: p.gcMs, processMs, wallMs } };
}

const f1 = (x: number) => x.toFixed(1);
const line = (label: string, units: number, unit: string, c: Measured) =>
  `  ${label}: ${units} ${unit} · isolate CPU ${f1(c.isolateMs)} ms (GC ${f1(c.gcMs)}) = ${f1((c.isolateMs * 1000) / Math.max(1, units))} µs/${unit.replace(/s$/, "")} · workerd CPU ${f1(c.processMs)} ms · wall ${f1(c.wallMs)} ms`;

/** Median figures of several rounds. */
function medianOf(cs: Measured[]): Measured {
  return {
    isolateMs: median(cs.map((c) => c.isolateMs)),
    gcMs: median(cs.map((c) => c.gcMs)),
    processMs: median(cs.map((c) => c.processMs)),
    wallMs: median(cs.map((c) => c.wallMs)),
  };
}

/** What the summary prints per step: the request's own cost, and the cost per unit above it. */
const summary: string[] = [];
function fitLine(step: string, unit: string, fixed: Measured, full: Measured, units: number): void {
  const perUnit = ((full.isolateMs - fixed.isolateMs) * 1000) / units;
  summary.push(
    `  ${step}: fixed ${f1(fixed.isolateMs)} ms + ${f1(perUnit)} µs per ${unit} (median of the rounds; ${units} ${unit}s: ${f1(full.isolateMs)} ms)`,
  );
}

async function exportOnce(rig: Rig, user: string): Promise<{ value: number; cpu: Measured }> {
  return measure(rig, async () => {
    const res = await fetch(`${rig.base}/v1/export?user_id=${user}`, {
      headers: { authorization: `Bearer ${rig.key}` },
    });
    if (!res.ok) throw new ScriptError(`export answered ${res.status}`);
    const text = await res.text();
    return text.split("\n").filter((l) => l.startsWith('{"type":"memory"')).length;
  });
}

/** The export's first part, `rounds` times (and an owner with nothing to export, for the request's own cost). */
async function exportPart(rig: Rig, rounds: number): Promise<void> {
  console.log("export: the first part of GET /v1/export (Worker invocation)");
  const empty: Measured[] = [];
  const full: Measured[] = [];
  let memories = 0;
  for (let r = 0; r < rounds; r++) {
    const none = await exportOnce(rig, "nobody");
    empty.push(none.cpu);
    console.log(line(`round ${r + 1}, empty store`, none.value, "memories", none.cpu));
    const part = await exportOnce(rig, EXPORTER.user);
    full.push(part.cpu);
    memories = part.value;
    console.log(line(`round ${r + 1}`, part.value, "memories", part.cpu));
  }
  fitLine("export part", "memory", medianOf(empty), medianOf(full), memories);
}

const importBody = (user: string, n: number, round: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      content: `Imported note ${round}-${i}: ${user} keeps a ${["blue", "green", "red"][i % 3]} notebook for ${["recipes", "travel plans", "book notes", "garden work"][i % 4]} (item ${i * 7919}).`,
      external_id: `cpu-${round}-${i}`,
    }),
  ).join("\n");

/** POST /v1/import of `n` lines, dry run then real, for a fresh user each round. */
async function importSlices(rig: Rig, sizes: number[], rounds: number): Promise<void> {
  console.log("import: POST /v1/import (Worker invocation; the real import also one Durable Object call)");
  const dry = new Map<number, Measured[]>();
  const real = new Map<number, Measured[]>();
  for (const n of sizes) {
    for (let r = 0; r < rounds; r++) {
      const user = `importer-${n}-${r}`;
      const body = importBody(user, n, r);
      const post = (dryRun: boolean) =>
        measure(rig, async () => {
          const res = await fetch(`${rig.base}/v1/import?user_id=${user}${dryRun ? "&dry_run=true" : ""}`, {
            method: "POST",
            headers: { authorization: `Bearer ${rig.key}`, "content-type": "application/x-ndjson" },
            body,
          });
          const text = await res.text();
          if (!res.ok) throw new ScriptError(`import of ${n} lines answered ${res.status}: ${text.slice(0, 300)}`);
          return n;
        });
      const d = await post(true);
      const w = await post(false);
      dry.set(n, [...(dry.get(n) ?? []), d.cpu]);
      real.set(n, [...(real.get(n) ?? []), w.cpu]);
      console.log(line(`${n} lines, round ${r + 1}, dry run`, n, "lines", d.cpu));
      console.log(line(`${n} lines, round ${r + 1}, written`, n, "lines", w.cpu));
    }
  }
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  fitLine("import dry run (Worker)", "line", medianOf(dry.get(small)!), medianOf(dry.get(large)!), large - small);
  fitLine(
    "import written (Worker + object)",
    "line",
    medianOf(real.get(small)!),
    medianOf(real.get(large)!),
    large - small,
  );
}

interface MoveAnswer {
  done: boolean;
  owners: { status: string; phase?: string; read?: { copied: number; verified: number } }[];
}

/** Every step of moving `account` to `to`, each measured. */
async function moveAll(rig: Rig, account: string, to: string): Promise<{ value: MoveAnswer; cpu: Measured }[]> {
  const steps: { value: MoveAnswer; cpu: Measured }[] = [];
  for (let done = false; !done; ) {
    const step = await measure(rig, async () => {
      const res = await fetch(`${rig.base}/admin/shards/move`, {
        method: "POST",
        headers: { authorization: `Bearer ${rig.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ account, to, owners_per_call: 1 }),
      });
      const text = await res.text();
      if (!res.ok) throw new ScriptError(`move step ${steps.length + 1} answered ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as MoveAnswer;
    });
    steps.push(step);
    done = step.value.done;
    if (steps.length > 10_000) throw new ScriptError("the move did not finish in 10,000 steps");
  }
  return steps;
}

/** A step that carries nothing: the owner with no rows crossing whole, to one shard and back, `rounds` times. */
async function emptyMoveSteps(rig: Rig, rounds: number): Promise<Measured> {
  const steps: Measured[] = [];
  for (let r = 0; r < rounds; r++) {
    const moved = await moveAll(rig, EMPTY_MOVER.account, r % 2 === 0 ? "DB_SHARD_1" : "DB");
    for (const s of moved) steps.push(s.cpu);
    console.log(line(`round ${r + 1}, an owner with no rows (${moved.length} step)`, 0, "rows", moved[0].cpu));
  }
  return medianOf(steps);
}

const readOf = (a: MoveAnswer) => ({
  copied: sum(a.owners.map((o) => o.read?.copied ?? 0)),
  verified: sum(a.owners.map((o) => o.read?.verified ?? 0)),
});

/** Every step of moving MOVER to DB_SHARD_1, beside steps that carry nothing; the CPU per row read. */
async function moveSteps(rig: Rig, memories: number, rounds: number): Promise<void> {
  console.log(`move: POST /admin/shards/move, one owner of ${memories} memories (each step one Durable Object call)`);
  const fixed = await emptyMoveSteps(rig, rounds);
  const steps = await moveAll(rig, MOVER.account, "DB_SHARD_1");
  const iso = steps.map((s) => s.cpu.isolateMs);
  const total = sum(iso);
  console.log(
    `  ${steps.length} steps · isolate CPU per step median ${f1(median(iso))} ms, max ${f1(Math.max(...iso))} ms · ` +
      `all steps ${f1(total)} ms = ${f1((total * 1000) / memories)} µs per memory moved · workerd CPU ${f1(sum(steps.map((s) => s.cpu.processMs)))} ms`,
  );
  const byPhase = new Map<string, { value: MoveAnswer; cpu: Measured }[]>();
  for (const s of steps) {
    const p = s.value.owners.map((o) => o.phase ?? o.status).join(",");
    byPhase.set(p, [...(byPhase.get(p) ?? []), s]);
  }
  for (const [p, xs] of byPhase) {
    const ms = xs.map((x) => x.cpu.isolateMs);
    const rows = xs.map((x) => readOf(x.value).copied + readOf(x.value).verified);
    console.log(
      `    ending in ${p}: ${xs.length} steps, median ${f1(median(ms))} ms, max ${f1(Math.max(...ms))} ms, rows read a step ${Math.min(...rows)}–${Math.max(...rows)}`,
    );
  }
  const cost = moveRowCost(
    steps.map((s) => ({ cpuMs: s.cpu.isolateMs, ...readOf(s.value) })),
    fixed.isolateMs,
  );
  summary.push(
    `  shard move: ${f1((total * 1000) / memories)} µs per memory over the whole move (${steps.length} steps, max ${f1(Math.max(...iso))} ms a step)`,
    `  shard-move step: fixed ${f1(fixed.isolateMs)} ms + ${f1(cost.copy)} µs per row copied, ${f1(cost.verify)} µs per row verified, ${f1(cost.all)} µs per row read over every step (at most ${cost.maxRows} rows a step)`,
  );
  // The fixed step is a whole crossing (every phase's statements once): only large steps tell rows from it.
  if (cost.maxRows < SMALL_MOVE_STEP)
    summary.push(
      `    steps of at most ${cost.maxRows} rows cost about what a step carrying nothing does: the per-row figures say little; --limits paid sizes steps by D1 alone`,
    );
}

/** regenerate_embeddings calls until the export owner's index is in sync (or `maxCalls`). */
async function lifecycleCalls(rig: Rig, mcp: Server, maxCalls: number): Promise<void> {
  console.log("lifecycle: regenerate_embeddings over MCP (index repair; one Durable Object call each)");
  const call = (user: string) =>
    measure(rig, async () => {
      const r = (await mcp.client.callTool({ name: "regenerate_embeddings", arguments: { user_id: user } })) as {
        structuredContent?: { reembedded: number; complete: boolean };
        isError?: boolean;
      };
      if (r.isError || !r.structuredContent) throw new ScriptError("regenerate_embeddings failed");
      return r.structuredContent;
    });
  const idle: Measured[] = [];
  const busy: Measured[] = [];
  let rows = 0;
  for (let i = 0; i < maxCalls; i++) {
    const none = await call("nobody");
    idle.push(none.cpu);
    console.log(line(`call ${i + 1}, nothing to do`, none.value.reembedded, "memories", none.cpu));
    const { value, cpu } = await call(EXPORTER.user);
    busy.push(cpu);
    rows += value.reembedded;
    console.log(line(`call ${i + 1}`, value.reembedded, "memories", cpu));
    if (value.complete) break;
  }
  fitLine("lifecycle call (index repair)", "memory", medianOf(idle), medianOf(busy), Math.round(rows / busy.length));
}

/** `--vars A=1,B=2`: extra vars for the server (a profile, such as the free one's). */
function parseVars(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? "").split(",").filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at < 1) throw new ScriptError(`--vars: "${pair}" is not NAME=value`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      memories: { type: "string" },
      limits: { type: "string" },
      rounds: { type: "string" },
      "import-lines": { type: "string" },
      "lifecycle-calls": { type: "string" },
      keep: { type: "boolean" },
      requests: { type: "string" },
      vars: { type: "string" },
    },
  });
  const requests = values.requests === undefined ? 0 : Number(values.requests || 30);
  if (!Number.isInteger(requests) || requests < 0 || requests > 1000)
    throw new ScriptError("--requests must be 1 to 1000");
  const extraVars = parseVars(values.vars);
  const n = Number(values.memories ?? 10_000);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new ScriptError("--memories must be 1 to 1000000");
  const limits = values.limits ?? "free";
  if (limits !== "paid" && limits !== "free") throw new ScriptError("--limits must be paid or free");
  const rounds = Number(values.rounds ?? 3);
  const sizes = (values["import-lines"] ?? "1,1000").split(",").map(Number);
  const secret = randomBytes(24).toString("hex");
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-"));
  setLocalPersistDir(dir);
  let server: LocalServer | null = null;
  let inspector: WorkerInspector | null = null;
  let mcp: Server | null = null;
  try {
    say(`state in ${dir}; applying migrations, seeding ${n} memories for each of two owners…`);
    applyMigrations("local");
    const { key } = await createKey({ scope: "app", name: KEY_NAME, account: "bench", label: "bench:cpu" }, "local");
    seedOwner(dir, EXPORTER, n);
    seedOwner(dir, MOVER, n);
    seedOwner(dir, EMPTY_MOVER, 0);
    const inspectorPort = Number(process.env.BENCH_INSPECTOR_PORT) || (await freePort());
    server = await startLocalServer(dir, {
      vars: { PLATFORM_LIMITS: limits, ADMIN_SECRET: secret, ...extraVars },
      inspectorPort,
      timeoutMs: 180_000,
    });
    const base = (await server.directBase()) ?? server.base;
    say(`server up; measuring on ${base} (PLATFORM_LIMITS=${limits})`);
    inspector = await connectInspector(inspectorPort);
    const rig: Rig = { server, base, key, secret, inspector };
    console.log(
      `CPU per step, PLATFORM_LIMITS=${limits}, ${n} memories per owner, V8 sampling every ${INTERVAL_US} µs`,
    );
    // Warm: the first request compiles the Worker; the first import and export load their code.
    await fetch(`${base}/v1/export?user_id=nobody`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
      r.arrayBuffer(),
    );
    if (requests > 0) {
      mcp = await connect(base, key);
      const rows = await requestKinds(mcp, EXPORTER.user, requests, (work) => measure(rig, work));
      summary.push(...rows);
    } else {
      await exportPart(rig, rounds);
      await importSlices(rig, sizes, rounds);
      await moveSteps(rig, n, rounds);
      mcp = await connect(base, key);
      await lifecycleCalls(rig, mcp, Number(values["lifecycle-calls"] ?? 5));
    }
    console.log("summary (isolate CPU):");
    for (const s of summary) console.log(s);
  } finally {
    await mcp?.client.close().catch(() => undefined);
    inspector?.close();
    await server?.stop();
    if (values.keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:cpu: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
