/**
 * @module scripts/bench-shard-move
 * `npm run bench:shard-move [-- --memories 200000] [--limits paid|free] [--owners-per-call 10] [--keep]`
 * (BENCH_PORT pins the port): how long does moving one large owner to another shard and back take?
 * Seeds one owner's memories, their create events and their FTS rows straight into the home
 * shard's local D1 (what an import writes; importing 200,000 memories through the Durable Object
 * would take most of an hour here), starts the offline server with two shards under
 * PLATFORM_LIMITS, moves the account to DB_SHARD_1 through POST /admin/shards/move step by step
 * (as `npm run shards -- move` does), stops the server and checks every row on both sides — counts
 * of memories, events and FTS rows, and a SHA-256 over every memory's id, status and content in id
 * order — then moves it back and checks again. Prints each direction's time, steps and rows.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { lit, type SeedOwner, seedOwner } from "./lib/bench-seed.ts";
import { say } from "./lib/bench-server.ts";
import { startLocalServer } from "./lib/local-server.ts";
import {
  applyMigrations,
  failureText,
  ScriptError,
  setLocalPersistDir,
  targetArgs,
  wrangler,
} from "./lib/wrangler-d1.ts";

const ACCOUNT = "bench-move";
const NAMESPACE = "user";
const USER = "mover";
const ADDRESS = JSON.stringify([ACCOUNT, NAMESPACE, USER]);

const OWNER: SeedOwner = { account: ACCOUNT, namespace: NAMESPACE, user: USER, idPrefix: "01MOVE", ftsBlock: 1 };

function execute(binding: string, args: string[]): string {
  const run = wrangler(["d1", "execute", binding, ...targetArgs("local"), ...args, "--yes"]);
  if (run.status !== 0) throw new ScriptError(`${binding}: ${failureText(run)}`);
  return run.stdout;
}

interface Side {
  memories: number;
  events: number;
  fts: number;
  sha: string;
}

/** Every row of the owner on one shard: counts, and a SHA-256 over id, status and content in id order. */
function sideOf(binding: string): Side {
  const owner = `account_id = ${lit(ACCOUNT)} AND namespace = ${lit(NAMESPACE)} AND user_id = ${lit(USER)}`;
  const count = (sql: string) => {
    const [result] = JSON.parse(execute(binding, ["--json", "--command", sql])) as { results: { n: number }[] }[];
    return Number(result.results[0]?.n ?? 0);
  };
  const hash = createHash("sha256");
  let rows = 0;
  for (let after = ""; ; ) {
    const sql = `SELECT id, status, content FROM memories WHERE ${owner} AND id > ${lit(after)} ORDER BY id LIMIT 50000`;
    const [result] = JSON.parse(execute(binding, ["--json", "--command", sql])) as {
      results: { id: string; status: string; content: string }[];
    }[];
    for (const r of result.results) hash.update(`${r.id}\t${r.status}\t${r.content}\n`);
    rows += result.results.length;
    if (result.results.length < 50000) break;
    after = result.results[result.results.length - 1].id;
  }
  return {
    memories: rows,
    events: count(`SELECT count(*) AS n FROM memory_events WHERE ${owner}`),
    fts: count(`SELECT count(*) AS n FROM memories_fts WHERE owner = ${lit(ADDRESS)}`),
    sha: hash.digest("hex"),
  };
}

interface Step {
  done: boolean;
  owners: { status: string; phase?: string }[];
}

/** The move, step by step as `npm run shards -- move` runs it; resolves with its time and steps. */
async function move(base: string, secret: string, to: string, perCall: number): Promise<{ ms: number; steps: number }> {
  const started = performance.now();
  for (let steps = 1; steps <= 100_000; steps++) {
    const res = await fetch(`${base}/admin/shards/move`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ account: ACCOUNT, to, owners_per_call: perCall }),
    });
    const text = await res.text();
    if (!res.ok) throw new ScriptError(`move step ${steps} answered ${res.status}: ${text.slice(0, 300)}`);
    const step = JSON.parse(text) as Step;
    say(`step ${steps}: ${step.owners.map((o) => `${o.status}${o.phase ? ` (${o.phase})` : ""}`).join(", ") || "-"}`);
    if (step.done) return { ms: performance.now() - started, steps };
  }
  throw new ScriptError("the move did not finish in 100,000 steps");
}

function check(label: string, expected: Side, here: Side, there: Side): void {
  const empty = there.memories === 0 && there.events === 0 && there.fts === 0;
  const same =
    here.memories === expected.memories &&
    here.events === expected.events &&
    here.fts === expected.fts &&
    here.sha === expected.sha;
  console.log(
    `  ${label}: memories ${here.memories}, events ${here.events}, FTS rows ${here.fts}, sha256 ${here.sha.slice(0, 16)}… ${same ? "= seeded" : "≠ SEEDED"}; other shard ${empty ? "empty" : `holds ${there.memories}/${there.events}/${there.fts}`}`,
  );
  if (!same || !empty) throw new ScriptError(`${label}: the rows are not exactly the seeded ones on one side only`);
}

async function direction(dir: string, vars: Record<string, string>, secret: string, to: string, perCall: number) {
  const server = await startLocalServer(dir, { vars, timeoutMs: 180_000 });
  try {
    say(`server up at ${server.base}; moving to ${to}…`);
    return await move(server.base, secret, to, perCall);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      memories: { type: "string" },
      limits: { type: "string" },
      "owners-per-call": { type: "string" },
      keep: { type: "boolean" },
    },
  });
  const n = Number(values.memories ?? 200_000);
  if (!Number.isInteger(n) || n < 1 || n > 2_000_000) throw new ScriptError("--memories must be 1 to 2000000");
  const limits = values.limits ?? "paid";
  if (limits !== "paid" && limits !== "free") throw new ScriptError("--limits must be paid or free");
  const perCall = Number(values["owners-per-call"] ?? 10);
  const secret = randomBytes(24).toString("hex");
  const vars = { PLATFORM_LIMITS: limits, ADMIN_SECRET: secret };
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-"));
  setLocalPersistDir(dir);
  try {
    say(`state in ${dir}; applying migrations…`);
    applyMigrations("local");
    let t = performance.now();
    say(`seeding ${n} memories (row, create event, FTS row) on DB…`);
    seedOwner(dir, OWNER, n);
    say(`seeded in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    const seeded = sideOf("DB");
    t = performance.now();
    console.log(`shard move of one owner with ${n} memories, PLATFORM_LIMITS=${limits}, ${perCall} owners per call`);
    check("seeded on DB", seeded, seeded, sideOf("DB_SHARD_1"));
    const there = await direction(dir, vars, secret, "DB_SHARD_1", perCall);
    console.log(`DB → DB_SHARD_1: ${(there.ms / 1000).toFixed(1)} s in ${there.steps} steps`);
    check("on DB_SHARD_1", seeded, sideOf("DB_SHARD_1"), sideOf("DB"));
    const back = await direction(dir, vars, secret, "DB", perCall);
    console.log(`DB_SHARD_1 → DB: ${(back.ms / 1000).toFixed(1)} s in ${back.steps} steps`);
    check("back on DB", seeded, sideOf("DB"), sideOf("DB_SHARD_1"));
    console.log(`both moves verified; wall time with checks ${((performance.now() - t) / 1000).toFixed(0)} s`);
  } finally {
    if (values.keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`bench:shard-move: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
