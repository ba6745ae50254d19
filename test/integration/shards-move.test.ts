/**
 * Moving accounts between shards online (docs/shards.md, shards/move-account.ts), in the "shards"
 * vitest project: real D1 per binding, the owners' real Durable Objects. Writes during a move are
 * neither lost nor doubled; a killed move resumes or rolls back; a half-done copy is rebuilt.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { copyOwnerRows, ownerSums } from "../../src/shards/d1-owner-rows";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { type MoveProgress, moveAccountStep } from "../../src/shards/move-account";
import { FTS_BLOCK_SPAN } from "../../src/storage/lexical/fts-owner-block";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { ok, stubOf } from "../helpers/lifecycle";

const SHARD = env.DB_SHARD_1!;
const directory = new D1ShardDirectory(env.DB);
const ADMIN_SECRET = "test-admin-secret-0123456789abcdef";
const POLICY = { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 };
const BUDGET = { maxMs: 5_000, maxRows: 100 };

const WORDS = [
  "violin",
  "kayak",
  "ramen",
  "tulips",
  "chess",
  "sauna",
  "origami",
  "tango",
  "lichen",
  "opals",
  "falconry",
  "quilting",
  "sumo",
  "yodel",
  "zither",
  "marzipan",
  "bonsai",
  "curling",
  "fresco",
  "glacier",
];

/** A sentence unlike the others of the same owner, so the write pipeline stores it as a new memory. */
function fact(tag: string, i: number): string {
  const w = (k: number) => WORDS[(i * k + k) % WORDS.length];
  return `${tag} ${i}: enjoys ${w(3)} with ${w(7)} near the ${w(11)} club, code ${i * 7919}`;
}

function ownerIn(accountId: string): Scope {
  return { accountId, namespace: "user", userId: uniqueUser(), actor: "test" };
}

async function seed(owner: Scope, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await ok(stubOf(owner).save(owner, { content: fact(tag, i) }));
    if (r.id) ids.push(r.id);
  }
  return ids;
}

const OWNER_WHERE = "account_id = ? AND namespace = ? AND user_id = ?";
const ownerArgs = (o: Scope) => [o.accountId, o.namespace, o.userId];

/** One owner's rows on one database: memory ids, and rows that appear twice (FTS per memory, events). */
async function rowsOn(db: D1Database, owner: Scope) {
  const ids = await db
    .prepare(`SELECT id FROM memories WHERE ${OWNER_WHERE} ORDER BY id`)
    .bind(...ownerArgs(owner))
    .all<{ id: string }>();
  const doubledEvents = await db
    .prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM memory_events WHERE ${OWNER_WHERE} GROUP BY memory_id, op, at, before, after HAVING count(*) > 1)`,
    )
    .bind(...ownerArgs(owner))
    .first<number>("n");
  const doubledFts = await db
    .prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE owner = json_array(?, ?, ?) GROUP BY memory_id HAVING count(*) > 1)`,
    )
    .bind(...ownerArgs(owner))
    .first<number>("n");
  const fts = await db
    .prepare("SELECT count(*) AS n FROM memories_fts WHERE owner = json_array(?, ?, ?)")
    .bind(...ownerArgs(owner))
    .first<number>("n");
  // FTS rows outside the owner's block of rowids on this database (storage/lexical/fts-owner-block.ts).
  const outsideBlock = await db
    .prepare(
      `SELECT count(*) AS n FROM memories_fts WHERE owner = json_array(?1, ?2, ?3)
       AND rowid / ${FTS_BLOCK_SPAN} IS NOT (SELECT block FROM fts_owner_blocks WHERE owner = json_array(?1, ?2, ?3))`,
    )
    .bind(...ownerArgs(owner))
    .first<number>("n");
  return { ids: ids.results.map((r) => r.id), fts, doubledEvents, doubledFts, outsideBlock };
}

const EMPTY = { ids: [], fts: 0, doubledEvents: 0, doubledFts: 0, outsideBlock: 0 };

async function moveAll(account: string, to: string, perCall = 10): Promise<MoveProgress[]> {
  const steps: MoveProgress[] = [];
  for (let i = 0; i < 20; i++) {
    const step = await moveAccountStep(env, account, to, perCall);
    steps.push(step);
    if (step.done) return steps;
  }
  throw new Error("move did not finish in 20 steps");
}

describe("moving an account online", () => {
  it("moves every row of every owner; writes during the move land once, on the right side", async () => {
    const account = `acct-move-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const owners = [ownerIn(account), ownerIn(account)];
    const written = new Map<Scope, Set<string>>();
    for (const o of owners) written.set(o, new Set(await seed(o, 25, "before")));

    // Saves keep arriving for both owners while the move runs, one owner per step: each owner has one
    // save in flight at every moment, so saves wait behind each crossing and land on both sides of it.
    let moving = true;
    let during = 0;
    const writers = owners.map(async (o) => {
      for (let i = 0; moving && i < 500; i++) {
        const r = await ok(stubOf(o).save(o, { content: fact(`during ${o.userId}`, i) }));
        if (r.id) written.get(o)?.add(r.id);
        during++;
      }
    });
    const steps = await moveAll(account, "DB_SHARD_1", 1);
    moving = false;
    await Promise.all(writers);

    expect(steps.at(-1)?.done).toBe(true);
    expect(steps.flatMap((s) => s.owners.filter((o) => o.status === "moved")).length).toBe(2);
    expect(during).toBeGreaterThan(4);
    expect(await directory.account(account)).toMatchObject({ shard: "DB_SHARD_1", state: "active", target: null });
    for (const o of owners) {
      const moved = await rowsOn(SHARD, o);
      expect(await rowsOn(env.DB, o)).toEqual(EMPTY);
      // Every row a save answered with is there exactly once, and nothing else; no event or FTS row twice.
      expect(moved.ids).toEqual([...(written.get(o) ?? [])].sort());
      expect(moved).toMatchObject({ doubledEvents: 0, doubledFts: 0, outsideBlock: 0 });
      expect(moved.fts).toBeGreaterThanOrEqual(moved.ids.length);
      expect(await directory.knownOwnerShard(o)).toBe("DB_SHARD_1");
    }
    // After the move the objects work on the new shard: recall finds what was saved during it.
    const latest = fact(`during ${owners[0].userId}`, 0);
    const found = await ok(stubOf(owners[0]).recall(owners[0], { query: latest, limit: 5 }));
    expect(found.results[0]?.memory.content).toBe(latest);
  });

  it("a killed move resumes: half the owners crossed, both halves stay usable, then the rest cross", async () => {
    const account = `acct-kill-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const [a, b] = [ownerIn(account), ownerIn(account)];
    await seed(a, 6, "a");
    await seed(b, 6, "b");
    const first = await moveAccountStep(env, account, "DB_SHARD_1", 1);
    expect(first.done).toBe(false);
    expect(await directory.account(account)).toMatchObject({ state: "moving", target: "DB_SHARD_1" });
    // Killed here. Each owner keeps working on whichever side it is on.
    for (const o of [a, b]) await ok(stubOf(o).save(o, { content: `after the kill ${o.userId} bought a kayak` }));
    const sides = await Promise.all([a, b].map((o) => directory.knownOwnerShard(o)));
    expect(sides.sort()).toEqual(["DB", "DB_SHARD_1"]);
    // A new user of the account while it moves registers on the target directly.
    const newcomer = ownerIn(account);
    await ok(stubOf(newcomer).save(newcomer, { content: "Joined during the move" }));
    expect(await directory.knownOwnerShard(newcomer)).toBe("DB_SHARD_1");
    // An export now could straddle a crossing: refused, not incomplete.
    const { key } = await createKey({ user: a.userId, account });
    const exported = await exports.default.fetch(
      new Request("http://x/v1/export", { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(exported.status).toBe(409);

    const before = await Promise.all(
      [a, b].map(async (o) => ownerSums((await directory.knownOwnerShard(o)) === "DB" ? env.DB : SHARD, o)),
    );
    await moveAll(account, "DB_SHARD_1");
    for (const [i, o] of [a, b].entries()) {
      expect(await ownerSums(SHARD, o)).toEqual(before[i]);
      expect(before[i].memories.rows).toBe(7);
      expect(await rowsOn(env.DB, o)).toEqual(EMPTY);
    }
    expect(await directory.account(account)).toMatchObject({ shard: "DB_SHARD_1", state: "active" });
    expect(
      (await exports.default.fetch(new Request("http://x/v1/export", { headers: { authorization: `Bearer ${key}` } })))
        .status,
    ).toBe(200);
  });

  it("a killed move rolls back: every owner returns to the source, the target keeps nothing", async () => {
    const account = `acct-back-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const [a, b] = [ownerIn(account), ownerIn(account)];
    await seed(a, 5, "a");
    await seed(b, 5, "b");
    const before = await Promise.all([a, b].map((o) => ownerSums(env.DB, o)));
    await moveAccountStep(env, account, "DB_SHARD_1", 1);
    const sides = await Promise.all([a, b].map((o) => directory.knownOwnerShard(o)));
    expect(sides.sort()).toEqual(["DB", "DB_SHARD_1"]);

    await moveAll(account, "DB");
    expect(await directory.account(account)).toMatchObject({ shard: "DB", state: "active", target: null });
    for (const [i, o] of [a, b].entries()) {
      expect(await ownerSums(env.DB, o)).toEqual(before[i]);
      expect(await rowsOn(SHARD, o)).toEqual(EMPTY);
      expect(await directory.knownOwnerShard(o)).toBe("DB");
    }
    const found = await ok(stubOf(a).recall(a, { query: fact("a", 2) }));
    expect(found.results[0]?.memory.content).toBe(fact("a", 2));
  });

  it("refuses a third shard while a move is under way, and a binding that is not a shard", async () => {
    const account = `acct-third-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const [a, b] = [ownerIn(account), ownerIn(account)];
    await seed(a, 1, "a");
    await seed(b, 1, "b");
    await directory.startMove(account, "DB_SHARD_1", Date.now());
    await expect(moveAccountStep(env, account, "DB_SHARD_2", 1)).rejects.toThrow(/not in MEMORY_SHARDS/);
    await moveAll(account, "DB");
    expect(await directory.account(account)).toMatchObject({ shard: "DB", state: "active" });
  });

  it("a copy left half-done on the target is rebuilt, never doubled", async () => {
    const account = `acct-half-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const owner = ownerIn(account);
    await seed(owner, 8, "x");
    // What a crossing killed after its copy (before the directory recorded it) leaves behind.
    await copyOwnerRows(env.DB, SHARD, owner);
    await ok(stubOf(owner).save(owner, { content: "One more after the stale copy: likes opals" }));
    const before = await ownerSums(env.DB, owner);
    await moveAll(account, "DB_SHARD_1");
    expect(await ownerSums(SHARD, owner)).toEqual(before);
    expect(before.memories.rows).toBe(9);
    expect(await rowsOn(env.DB, owner)).toEqual(EMPTY);
  });

  it("rows left on the source by a crossing killed before its delete are cleared before the move ends", async () => {
    const account = `acct-left-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const owner = ownerIn(account);
    await seed(owner, 4, "y");
    await moveAll(account, "DB_SHARD_1");
    // Simulate the leftovers: the account moving again is not needed, only rows back on the source.
    await copyOwnerRows(SHARD, env.DB, owner);
    await directory.startMove(account, "DB", Date.now());
    await directory.reverseMove(account, "DB_SHARD_1", "DB", Date.now());
    const step = await moveAccountStep(env, account, "DB_SHARD_1", 10);
    expect(step.done).toBe(true);
    expect(step.owners).toEqual([
      expect.objectContaining({ status: "already", removed: expect.objectContaining({ memories: 4 }) }),
    ]);
    expect(await rowsOn(env.DB, owner)).toEqual(EMPTY);
    expect((await ownerSums(SHARD, owner)).memories.rows).toBe(4);
  });

  it("after a move, recalls count access on the new shard", async () => {
    const account = `acct-touch-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const owner = ownerIn(account);
    await seed(owner, 3, "t");
    await moveAll(account, "DB_SHARD_1");
    const found = await ok(stubOf(owner).recall(owner, { query: fact("t", 1), limit: 1 }));
    const id = found.results[0]?.memory.id;
    expect(found.results[0]?.memory.content).toBe(fact("t", 1));
    // maintain() writes the pending access counts before its jobs (no jobs asked here).
    await ok(stubOf(owner).maintain(owner, { now: Date.now(), jobs: [], policy: POLICY, budget: BUDGET }));
    const count = await SHARD.prepare("SELECT access_count AS n FROM memories WHERE id = ?")
      .bind(id)
      .first<number>("n");
    expect(count).toBe(1);
  });

  it("the admin route moves step by step and reports what it verified", async () => {
    const account = `acct-http-${uniqueUser()}`;
    await directory.place(account, "DB", Date.now());
    const owner = ownerIn(account);
    await seed(owner, 3, "h");
    const call = (body: unknown) =>
      exports.default.fetch(
        new Request("http://x/admin/shards/move", {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN_SECRET}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
    const bad = await call({ account, to: "DB_SHARD_9" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { field: string }).field).toBe("to");
    const res = await call({ account, to: "DB_SHARD_1", owners_per_call: 5 });
    expect(res.status).toBe(200);
    const step = (await res.json()) as MoveProgress;
    expect(step).toMatchObject({ account, from: "DB", to: "DB_SHARD_1", done: true, remaining: 0 });
    expect(step.owners[0]).toMatchObject({ status: "moved", shard: "DB_SHARD_1" });
    expect(step.owners[0].verified.memories.rows).toBe(3);
    expect((await ownerSums(SHARD, owner)).memories.rows).toBe(3);
  });
});
