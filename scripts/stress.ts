/**
 * @module scripts/stress
 * The reliability run (docs/reliability.md):
 *   npm run stress -- [--seconds 120] [--clients 16] [--users 8] [--json out.json] [--seed N]
 *                     [--fuzz 10000] [--kills 3] [--url http://…] [--keep] [--hostile]
 * Starts the offline server on a throwaway state directory (or uses --url), runs concurrent MCP
 * clients doing random operations as many owners, kills the server hard mid-write and restarts it,
 * makes the vector index fail for a while and then the embedder, sends hostile and malformed
 * requests, and prints the figures. With --hostile the server's embedder and Llm are a hostile
 * OpenAI-compatible upstream on loopback throughout (scripts/lib/stress-hostile-upstream.ts), beside
 * the embedding outage, and a phase drives every hostile mode through one store.
 * Exits 1 when any invariant broke, 2 when the run itself could not run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createKeys } from "./lib/api-keys.ts";
import { percentile } from "./lib/bench-metrics.ts";
import { type LocalServer, startLocalServer } from "./lib/local-server.ts";
import { type EmbedderReport, embedderPhase } from "./lib/stress-embedder-fault.ts";
import {
  hostileInputs,
  type KillReport,
  killDuringWrites,
  type VectorReport,
  vectorPhase,
} from "./lib/stress-faults.ts";
import { runFuzz } from "./lib/stress-fuzz.ts";
import { fuzzCases } from "./lib/stress-fuzz-plan.ts";
import { type HostileReport, HostileUpstream, hostilePhase } from "./lib/stress-hostile-upstream.ts";
import { Ledger, WireChecks } from "./lib/stress-invariants.ts";
import { MARKER_PATTERN, type OwnerPlan, planOwners, type StressDevice } from "./lib/stress-owners.ts";
import { freshSeed, Rng } from "./lib/stress-prng.ts";
import { invariants, renderTable, type StressFigures } from "./lib/stress-report.ts";
import { RandomRun } from "./lib/stress-run.ts";
import { d1Files, halfWrittenCount, storeDigest } from "./lib/stress-store.ts";
import { trustChecks } from "./lib/stress-trust.ts";
import { apiDigest, type Verification, verifyLedger } from "./lib/stress-verify.ts";
import { applyMigrations, ScriptError, setLocalPersistDir, type Target } from "./lib/wrangler-d1.ts";

const USAGE =
  "usage: npm run stress -- [--seconds 120] [--clients 16] [--users 8] [--json out.json] [--seed N] [--fuzz 10000] [--kills 3] [--url URL] [--keep] [--hostile]";
const INSPECTOR_PORT = 9730;
/** A hostile request slower than this is a ReDoS stall. */
const STALL_MS = 5_000;

function options() {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "120" },
      clients: { type: "string", default: "16" },
      users: { type: "string", default: "8" },
      fuzz: { type: "string", default: "10000" },
      kills: { type: "string", default: "3" },
      seed: { type: "string" },
      json: { type: "string" },
      url: { type: "string" },
      keep: { type: "boolean" },
      hostile: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new ScriptError(`--${name} must be an integer ${min}-${max}\n${USAGE}`);
    return n;
  };
  return {
    seconds: int("seconds", values.seconds, 5, 3600),
    clients: int("clients", values.clients, 1, 256),
    users: int("users", values.users, 2, 100),
    fuzz: int("fuzz", values.fuzz, 0, 1_000_000),
    kills: values.url ? 0 : int("kills", values.kills, 0, 20),
    seed: values.seed === undefined ? freshSeed() : int("seed", values.seed, 0, 2 ** 32 - 1),
    json: values.json,
    url: values.url?.replace(/\/+$/, ""),
    keep: values.keep ?? false,
    hostile: (values.hostile ?? false) && !values.url,
  };
}

type Options = ReturnType<typeof options>;
const say = (text: string) => process.stderr.write(`stress: ${text}\n`);

function allDevices(plan: OwnerPlan): StressDevice[] {
  return [...plan.devices, ...plan.fuzzDevices, plan.vectorDevice, plan.embedderDevice];
}

/** One key per device, in one statement. */
async function issueKeys(plan: OwnerPlan, target: Target): Promise<void> {
  const devices = allDevices(plan);
  const keys = await createKeys(
    devices.map((d) => ({ scope: d.scope, name: d.name, account: d.account, label: `stress ${d.label}` })),
    target,
  );
  devices.forEach((d, i) => {
    d.key = keys[i].key;
  });
}

interface Phases {
  kills: KillReport[];
  verifications: Verification[];
  survived: number;
  vector: VectorReport | null;
  embedder: EmbedderReport | null;
}

/** The restart whose server runs the embedding outage: the second (the first has the index fault), or the only one. */
function embedderRestart(kills: number): number {
  return Math.min(2, kills);
}

/** The dev-only fault vars of restart `k`: the index fault until `until`, the embedder's until `embedderUntil`. */
function faultVars(k: number, kills: number, until: number, embedderUntil: number): Record<string, string> {
  const vars: Record<string, string> = {};
  if (k === 1) vars.DEV_FAULT_VECTOR_INDEX_UNTIL = String(until);
  if (k === embedderRestart(kills)) vars.DEV_FAULT_EMBEDDER_UNTIL = String(embedderUntil);
  return Object.keys(vars).length > 0 ? { DEV_FAULTS: "on", ...vars } : {};
}

/** The random phase with its kills; returns when the clients have stopped. */
async function randomPhase(
  o: Options,
  plan: OwnerPlan,
  server: { current: LocalServer | null; base: string },
  dir: string,
  run: RandomRun,
  ledger: Ledger,
  wire: WireChecks,
  rng: Rng,
  startupMs: number,
  upstream: HostileUpstream | null,
): Promise<Phases> {
  const started = Date.now();
  let stop = false;
  const clients = run.run(() => stop);
  const phases: Phases = { kills: [], verifications: [], survived: 0, vector: null, embedder: null };
  for (let k = 1; k <= o.kills; k++) {
    await sleep(Math.max(0, started + (o.seconds * 1000 * k) / (o.kills + 1) - Date.now()));
    say(`kill ${k}/${o.kills}: waiting for an import and a save in flight`);
    const report = await killDuringWrites(server.current!, run, dir);
    phases.kills.push(report);
    say(
      `killed with ${JSON.stringify(report.inFlight)} in flight; half-written: ${halfWrittenCount(report.half)}; restarting`,
    );
    const until = Math.round(Date.now() + startupMs * 1.5 + 25_000);
    // The outage phase makes about 25 calls, each well under a second here; a loaded machine needs more.
    const embedderUntil = Math.round(Date.now() + startupMs * 1.5 + 60_000);
    const vars = { ...upstream?.vars(), ...faultVars(k, o.kills, until, embedderUntil) };
    // Hostile embeddings until the first kill: the index repair of the fault phases must catch up after
    // it (the hostile phase drives every embedding attack again at the end); hostile chat throughout.
    if (upstream && k === 1) upstream.embeddingsCleanAt = Date.now();
    server.current = await startLocalServer(dir, { inspectorPort: INSPECTOR_PORT, vars });
    server.base = server.current.base;
    const v = await verifyLedger(server.base, allDevices(plan), ledger, wire);
    phases.verifications.push(v);
    say(`restarted; ${v.memories} memories of ${v.owners} owners read back, ${v.lost.length} acknowledged writes lost`);
    for (const l of v.lost.slice(0, 5)) say(`  lost: ${JSON.stringify(l)}`);
    if (v.lost.length === 0 && halfWrittenCount(report.half) === 0) phases.survived++;
    await run.resume(server.base);
    const left = (t: number) => `${Math.round((t - Date.now()) / 1000)} s`;
    const vector = k === 1 ? vectorPhase(server.base, plan.vectorDevice, wire, until, rng.fork()) : null;
    const embedder =
      k === embedderRestart(o.kills)
        ? embedderPhase(server.base, plan.embedderDevice, wire, embedderUntil, rng.fork())
        : null;
    if (vector) say(`vector index failing for ${left(until)}`);
    if (embedder) say(`embedder failing for ${left(embedderUntil)}`);
    [phases.vector, phases.embedder] = await Promise.all([vector ?? phases.vector, embedder ?? phases.embedder]);
    if (vector) say(`vector fault phase: ${JSON.stringify(phases.vector)}`);
    if (embedder) say(`embedding outage phase: ${JSON.stringify(phases.embedder)}`);
  }
  await sleep(Math.max(0, started + o.seconds * 1000 - Date.now()));
  stop = true;
  await clients;
  return phases;
}

async function main(): Promise<number> {
  const o = options();
  const rng = new Rng(o.seed);
  say(`seed ${o.seed} (rerun with --seed ${o.seed})`);
  const plan = planOwners(o.users, rng.fork());
  const dir = o.url ? null : mkdtempSync(join(tmpdir(), "hippocampus-stress-"));
  if (dir) {
    setLocalPersistDir(dir);
    say(`state in ${dir}; applying migrations and issuing ${allDevices(plan).length} keys…`);
    applyMigrations("local");
  }
  await issueKeys(plan, o.url && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(o.url) ? "remote" : "local");
  const server: { current: LocalServer | null; base: string } = { current: null, base: o.url ?? "" };
  let ok = false;
  let startupMs = 0;
  const upstream = o.hostile ? await new HostileUpstream(rng.fork()).start() : null;
  if (upstream) say(`hostile upstream at ${upstream.baseUrl} (embedder and Llm of the server)`);
  try {
    if (dir) {
      const t0 = Date.now();
      server.current = await startLocalServer(dir, { inspectorPort: INSPECTOR_PORT, vars: upstream?.vars() });
      server.base = server.current.base;
      startupMs = Date.now() - t0;
      say(`server up at ${server.base} in ${(startupMs / 1000).toFixed(1)} s`);
    }
    ok = await runAll(o, plan, server, dir, rng, startupMs, upstream);
  } finally {
    await server.current?.stop();
    await upstream?.stop();
    if (dir && (o.keep || !ok)) say(`kept ${dir}`);
    else if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return ok ? 0 : 1;
}

async function runAll(
  o: Options,
  plan: OwnerPlan,
  server: { current: LocalServer | null; base: string },
  dir: string | null,
  rng: Rng,
  startupMs: number,
  upstream: HostileUpstream | null,
): Promise<boolean> {
  const wire = new WireChecks(plan.owners);
  const ledger = new Ledger();
  const run = new RandomRun(server.base, plan.devices, o.clients, ledger, wire, rng.fork());
  for (const line of run.describeClients()) say(line);
  const started = Date.now();
  const phases = await randomPhase(o, plan, server, dir ?? "", run, ledger, wire, rng, startupMs, upstream);
  // The trust checks and the fuzz expect the rules' answers: the upstream refuses chat from here on.
  if (upstream) upstream.policy = "rules";
  const elapsed = (Date.now() - started) / 1000;
  say(`random phase done: ${run.operations()} operations in ${elapsed.toFixed(0)} s; verifying every owner`);
  const final = await verifyLedger(server.base, allDevices(plan), ledger, wire);
  const [fuzzUser, fuzzApp] = plan.fuzzDevices;
  say("hostile inputs (ReDoS texts within the limits)");
  const hostile = await hostileInputs(server.base, fuzzUser, wire);
  say("trust: the quarantine-bypass sequence, hostile categories and actors");
  const trust = await trustChecks(server.base, fuzzUser, wire);
  let hostileUp: HostileReport | null = null;
  if (upstream) {
    say("hostile upstream: every mode through one store");
    hostileUp = await hostilePhase(server.base, fuzzUser, wire, upstream);
    say(`hostile upstream phase: ${JSON.stringify(hostileUp)}; requests by mode ${JSON.stringify(upstream.modes())}`);
  }
  await sleep(2_000); // access counts of the hostile recall are written off the hot path
  const digest = () => (dir ? storeDigest(d1Files(dir)).digest : apiDigest(server.base, allDevices(plan), wire));
  const before = await digest();
  say(`fuzzing: ${o.fuzz} cases`);
  const fuzz = await runFuzz(
    { base: server.base, user: fuzzUser, app: fuzzApp, wire },
    fuzzCases(rng.fork(), o.fuzz),
    8,
    (n) => say(`fuzz ${n}/${o.fuzz}`),
  );
  await sleep(1_000);
  const after = await digest();
  const logMarkers = dir ? countLogMarkers(server.current!.logFile) : 0;
  const lost = final.lost;
  const figures: StressFigures = {
    seed: o.seed,
    seconds: o.seconds,
    clients: o.clients,
    users: o.users,
    operations: run.operations(),
    operationsPerSecond: run.operations() / elapsed,
    toolErrors: Object.values(run.counts).reduce((n, c) => n + c.toolError, 0),
    unanswered: run.unexpectedFailureCount,
    acknowledgedWrites: ledger.acknowledged,
    exemptWrites: ledger.exempt,
    lostWrites: lost.length,
    crossOwnerLeaks: wire.leaks.length,
    serverErrors: wire.serverErrors.length,
    stackTraces: wire.stackTraces.length,
    kills: phases.kills.length,
    killsSurvived: phases.survived,
    halfWritten: phases.kills.reduce((n, k) => n + halfWrittenCount(k.half), 0),
    vectorFault: {
      recallAnswered: phases.vector
        ? `${phases.vector.recallsAnswered}/${phases.vector.saved} answered, ${phases.vector.recallsFound} found`
        : "not run",
      repairCaughtUp: phases.vector
        ? phases.vector.inSyncAfterRepair && phases.vector.unindexedAfterRepair === 0
        : false,
      ok: phases.vector?.ok ?? o.kills === 0,
    },
    embedderFault: embedderFigures(phases.embedder, o.kills),
    hostileSlowestMs: hostile.slowestMs,
    hostileErrors: hostile.errors.length,
    trustChecks: trust.checks,
    trustFailures: trust.failures.length,
    fuzzCases: fuzz.cases,
    fuzzRefused: fuzz.refused,
    fuzzAccepted: fuzz.acceptedCount,
    fuzzUnclear: fuzz.unclearCount,
    storeUnchanged: before === after,
    latencyP50Ms: percentile(run.latencies, 50),
    latencyP95Ms: percentile(run.latencies, 95),
    memoryTextInLog: logMarkers,
    ...(hostileUp ? { hostileUpstream: hostileFigures(hostileUp) } : {}),
  };
  printDetails(run, wire, lost, fuzz, hostile, trust.failures);
  console.log(renderTable(figures));
  const checks = invariants(figures, Math.min(o.kills, 3), Math.min(o.fuzz, 10_000), STALL_MS);
  for (const c of checks) console.log(`${c.ok ? "PASS" : "FAIL"}  ${c.name}`);
  if (o.json)
    writeFileSync(o.json, `${JSON.stringify({ figures, invariants: checks, operations: run.counts }, null, 2)}\n`);
  return checks.every((c) => c.ok);
}

function hostileFigures(h: HostileReport): NonNullable<StressFigures["hostileUpstream"]> {
  return {
    summary: `${h.modes.length} modes; writes ${h.writes} (${h.failedWrites} failed); recall failures ${h.recallFailures} of ${h.recalls} queries; unscreened ${h.unscreened.length}; slowest call ${Math.round(h.slowestMs)} ms (${h.overDeadline} past deadline + 2 s); largest body read ${h.maxBodyMb.toFixed(1)} MB of 400; cross-origin requests ${h.crossOrigin}`,
    ok: h.ok,
  };
}

function embedderFigures(e: EmbedderReport | null, kills: number): StressFigures["embedderFault"] {
  if (!e) return { writes: "not run", recallAnswered: "not run", repairCaughtUp: false, ok: kills === 0 };
  return {
    writes: `${e.writes} sent, ${e.failedWrites} failed, ${e.indexedLater} said indexed later`,
    recallAnswered: `${e.recallsAnswered}/${e.probes} answered (${e.recallsInWindow} in the outage), ${e.recallsFound} found, ${e.recallsFoundAfterRepair} after repair`,
    repairCaughtUp: e.inSyncAfterRepair && e.unindexedAfterRepair === 0,
    ok: e.ok,
  };
}

function countLogMarkers(file: string): number {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => new RegExp(MARKER_PATTERN.source).test(l)).length;
}

function printDetails(
  run: RandomRun,
  wire: WireChecks,
  lost: { owner: string; id: string; op: string; problem: string }[],
  fuzz: Awaited<ReturnType<typeof runFuzz>>,
  hostile: Awaited<ReturnType<typeof hostileInputs>>,
  trustFailures: string[],
): void {
  const show = (title: string, items: unknown[]) => {
    if (items.length === 0) return;
    say(`${title} (${items.length}; first 10):`);
    for (const i of items.slice(0, 10)) say(`  ${typeof i === "string" ? i : JSON.stringify(i)}`);
  };
  say(`operations by kind: ${JSON.stringify(run.counts)}`);
  show("unanswered while up", run.unexpectedFailures);
  show("cross-owner leaks", wire.leaks);
  show("5xx answers", wire.serverErrors);
  show("stack traces", wire.stackTraces);
  show("lost writes", lost);
  show("fuzz cases accepted", fuzz.accepted);
  show("fuzz cases unclear", fuzz.unclear);
  show("hostile input errors", hostile.errors);
  show("trust checks failed", trustFailures);
  say(
    `hostile inputs: slowest ${Math.round(hostile.slowestMs)} ms (${hostile.slowest}); fuzz routes ${JSON.stringify(fuzz.byRoute)}, slowest ${Math.round(fuzz.slowestMs)} ms`,
  );
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`stress: ${err instanceof ScriptError ? err.message : ((err as Error).stack ?? String(err))}`);
    process.exit(2);
  },
);
