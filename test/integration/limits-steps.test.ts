/**
 * Work that outgrows one invocation, under small PLATFORM_LIMITS (the "limits" vitest project: 40 D1
 * queries per invocation, two shards): a shard move goes in resumable steps, and the cron, an import and a consolidation run each stay inside the limits
 * however many rows are due. Every request here would fail with limit_exceeded if any step overran.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildLifecycleScan } from "../../src/composition";
import { runScheduledMaintenance } from "../../src/jobs/scheduled";
import type { Memory, Scope } from "../../src/memory/types";
import { ownerSums } from "../../src/shards/d1-owner-rows";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { type MoveProgress, moveAccountStep } from "../../src/shards/move-account";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { exportAll } from "../helpers/export-parts";
import { DAY, ok, seedFacts, stubOf } from "../helpers/lifecycle";

const directory = new D1ShardDirectory(env.DB);
const SHARD = env.DB_SHARD_1!;

/** An owner of a fresh account placed on the home database, with `n` memories written as an import stores them. */
async function ownerWith(n: number, extra?: (i: number) => Partial<Memory>): Promise<Scope> {
  const account = `acct-${uniqueUser()}`;
  await directory.place(account, "DB", Date.now());
  const owner: Scope = { accountId: account, namespace: "user", userId: uniqueUser(), actor: "test" };
  await seedFacts(owner, n, extra);
  return owner;
}

describe("export in parts, with entities", () => {
  it("a store whose memories and entities outgrow one invocation exports both completely, each once", async () => {
    const owner = await ownerWith(9_000);
    const { key } = await createKey({ account: owner.accountId, user: owner.userId });
    const graph = Array.from({ length: 1_600 }, (_, i) =>
      JSON.stringify({ type: "entity", name: `Entity ${i}`, entityType: "place", observations: [] }),
    );
    // 9,000 memories are 9 pages of 4 queries: with the entity pages, more than 40 queries, so the parts cross into the entities.
    let pending = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 40 && pending > 0; round++) {
      const imported = await exports.default.fetch("http://x/v1/import", {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: graph.join("\n"),
      });
      expect(imported.status).toBe(200);
      const answer = (await imported.json()) as { entities?: { pending?: number } };
      pending = answer.entities?.pending ?? 0;
    }
    expect(pending).toBe(0);
    const { parts, lines } = await exportAll(key);
    expect(parts).toBeGreaterThanOrEqual(2);
    const names = lines.filter((l) => l.type === "entity").map((l) => l.name);
    expect(names).toHaveLength(1_600);
    expect(new Set(names).size).toBe(1_600);
    expect(lines.at(-1)).toEqual({ type: "end", memories: 9_000, events: 9_000, entities: 1_600, relations: 0 });
  });
});

async function moveAll(account: string, to: string): Promise<MoveProgress[]> {
  const steps: MoveProgress[] = [];
  for (let i = 0; i < 60; i++) {
    const step = await moveAccountStep(env, account, to, 10);
    steps.push(step);
    if (step.done) return steps;
  }
  throw new Error("move did not finish in 60 steps");
}

describe("a shard move in steps", () => {
  it("moves an owner too large for one invocation over several calls, holding its writes until it crosses", async () => {
    const owner = await ownerWith(1_500);
    const before = await ownerSums(env.DB, owner);
    expect(before.memories.rows).toBe(1_500);
    const first = await moveAccountStep(env, owner.accountId, "DB_SHARD_1", 10);
    expect(first.done).toBe(false);
    expect(first.owners[0]).toMatchObject({ status: "partial" });
    // Mid-crossing: reads go on from the source; a write is refused, retryably, and changes nothing.
    const listed = await ok(stubOf(owner).list(owner, { limit: 5 }));
    expect(listed.memories.length).toBe(5);
    const refused = await stubOf(owner).save(owner, { content: "a new fact while moving: owns a red kayak" });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({ code: "conflict" });
    const rest = await moveAll(owner.accountId, "DB_SHARD_1");
    const steps = [first, ...rest];
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.slice(0, -1).every((s) => s.owners[0]?.status === "partial")).toBe(true);
    expect(steps.at(-1)?.owners.at(-1)).toMatchObject({ status: "moved", phase: "done" });
    expect(await ownerSums(SHARD, owner)).toEqual(before);
    expect((await ownerSums(env.DB, owner)).memories.rows).toBe(0);
    expect(await directory.knownOwnerShard(owner)).toBe("DB_SHARD_1");
    // Crossed: writes land again, on the target.
    const saved = await ok(stubOf(owner).save(owner, { content: "after the move: owns a red kayak" }));
    expect(saved.status).toBe("created");
    expect((await ownerSums(SHARD, owner)).memories.rows).toBe(1_501);
    // And back, in steps as well.
    await moveAll(owner.accountId, "DB");
    expect((await ownerSums(env.DB, owner)).memories.rows).toBe(1_501);
    expect((await ownerSums(SHARD, owner)).memories.rows).toBe(0);
  }, 300_000);
});

describe("the cron, an import and a consolidation run within the limits", () => {
  it("expires 120 due memories over several cron runs, none of them failing", async () => {
    const now = Date.now();
    const owner = await ownerWith(120, () => ({ expiresAt: now - DAY }));
    const count = (status: string) =>
      env.DB.prepare("SELECT count(*) AS n FROM memories WHERE account_id = ? AND user_id = ? AND status = ?")
        .bind(owner.accountId, owner.userId, status)
        .first<number>("n");
    let runs = 0;
    while (((await count("active")) ?? 0) > 0 && runs < 40) {
      const summary = await runScheduledMaintenance(env, now, { scan: buildLifecycleScan });
      runs++;
      expect(summary.failed).toBe(0);
      for (const o of summary.outcomes)
        if ("report" in o) for (const job of o.report.jobs) expect(job.error).toBeUndefined();
    }
    expect(runs).toBeGreaterThan(1);
    expect(await count("expired")).toBe(120);
  }, 300_000);

  it("a consolidation pass over a store larger than one invocation stops inside it and resumes", async () => {
    const owner = await ownerWith(150);
    const reports = [];
    for (let run = 0; run < 40; run++) {
      const report = await ok(
        stubOf(owner).maintain(owner, {
          now: Date.now(),
          jobs: ["consolidate"],
          policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
          budget: { maxMs: 20_000, maxRows: 100_000 },
          full: { consolidate: true },
        }),
      );
      reports.push(report);
      expect(report.jobs[0].error).toBeUndefined();
      if (report.complete) break;
    }
    expect(reports.length).toBeGreaterThan(1);
    expect(reports.at(-1)?.complete).toBe(true);
  }, 300_000);

  it("an import too large for one invocation is refused naming the limit, and leaves nothing", async () => {
    const owner = await ownerWith(0);
    const { key } = await createKey({ account: owner.accountId, user: owner.userId });
    const body = Array.from({ length: 4_000 }, (_, i) =>
      JSON.stringify({ content: `imported ${i}: the user keeps note ${i * 31}`, external_id: `x-${i}` }),
    ).join("\n");
    const res = await exports.default.fetch("http://x/v1/import", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
      body,
    });
    const answer = (await res.json()) as { error?: string; field?: string };
    expect(res.status).toBe(413);
    expect(answer).toMatchObject({ error: "limit_exceeded", field: "d1_queries_per_invocation" });
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM memories WHERE account_id = ? AND user_id = ?")
      .bind(owner.accountId, owner.userId)
      .first<number>("n");
    expect(stored).toBe(0);
  });
});
