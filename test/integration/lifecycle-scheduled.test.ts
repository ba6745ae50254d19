import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildLifecycleScan } from "../../src/composition";
import type { Env } from "../../src/env";
import { runScheduledMaintenance } from "../../src/jobs/scheduled";
import { dueQuery } from "../../src/memory/lifecycle/due-query";
import { dueCriteria, ownersSql } from "../../src/storage/memories/d1-lifecycle-queries";
import { uniqueUser } from "../helpers/api-keys";
import { DAY, insertMemories, ok, ownerOf, rowOf, runCron, stubOf } from "../helpers/lifecycle";

const POLICY = {
  retentionDays: 30,
  halfLifeDays: 30,
  batchSize: 100,
  retentionRules: [
    { memoryType: "episodic" as const, days: 90, keepPriorityAtMost: 1 },
    { category: "chat", days: 7 },
  ],
};

function cron(vars: Record<string, string> = {}, timer?: () => number) {
  return runScheduledMaintenance({ ...env, ...vars } as Env, Date.now(), { scan: buildLifecycleScan, timer });
}

/** Runs the cron until nobody has work left, so each test starts from a quiet database. */
async function drain() {
  for (let i = 0; i < 10; i++) if ((await cron()).owners === 0) return;
  throw new Error("lifecycle work never drained");
}

describe("finding users that need work", () => {
  it("answers every 'who needs work' criterion from an index, never a table scan", async () => {
    for (const c of dueCriteria(dueQuery(POLICY, Date.now(), "local-hash-v1"))) {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${ownersSql(c)}`)
        .bind(...c.params, 10)
        .all<{ detail: string }>();
      const details = plan.results.map((r) => r.detail);
      const access = details.find((d) => / memories /.test(`${d} `) || d.includes("memories USING"));
      expect(access, `${c.job}: ${c.where}\n${details.join("\n")}`).toMatch(
        /^(SEARCH|SCAN) memories USING (COVERING )?INDEX memories_/,
      );
      // A SCAN is acceptable only over a partial index, which holds nothing but rows with work due.
      if (access!.startsWith("SCAN")) expect(c.index, c.where).toBeDefined();
    }
  });

  it("visits only users with work due, at most LIFECYCLE_USERS_PER_RUN per run; the rest wait for the next run", async () => {
    await drain();
    const idle = ownerOf(uniqueUser("idle"));
    await insertMemories(idle, [{ content: "Nothing to do here" }]);
    await cron();
    expect((await cron()).outcomes.map((o) => o.owner.userId)).not.toContain(idle.userId);

    const busy = [ownerOf(uniqueUser("a")), ownerOf(uniqueUser("b")), ownerOf(uniqueUser("c"))];
    for (const o of busy) await insertMemories(o, [{ content: "Expired note", expiresAt: Date.now() - 1000 }]);
    const first = await cron({ LIFECYCLE_USERS_PER_RUN: "2", LIFECYCLE_CONCURRENCY: "2" });
    expect(first.owners).toBe(2);
    const second = await cron({ LIFECYCLE_USERS_PER_RUN: "2" });
    const visited = [...first.outcomes, ...second.outcomes].map((o) => o.owner.userId);
    for (const o of busy) expect(visited).toContain(o.userId);
    expect(
      first.outcomes.every(
        (o) => o.status === "done" && "report" in o && o.report.jobs.some((j) => j.job === "expire"),
      ),
    ).toBe(true);
  });

  it("stops handing out work when the run's time budget is spent; skipped users stay due", async () => {
    await drain();
    const owner = ownerOf(uniqueUser());
    const [row] = await insertMemories(owner, [{ content: "Expired note", expiresAt: Date.now() - 1000 }]);
    let calls = 0;
    const start = Date.now();
    // The first reading starts the run; every later one says the 20 s budget is gone.
    const summary = await cron({}, () => (calls++ === 0 ? start : start + 20_000));
    expect(summary.outcomes.find((o) => o.owner.userId === owner.userId)?.status).toBe("skipped");
    expect((await rowOf(row.id))?.status).toBe("active");
    await cron();
    expect((await rowOf(row.id))?.status).toBe("expired");
  });
});

describe("passive forgetting (decay)", () => {
  it("halves importance of never-recalled memories per half-life, leaves recalled ones, deletes nothing", async () => {
    const owner = ownerOf(uniqueUser());
    const sixtyDaysAgo = Date.now() - 60 * DAY;
    const [never, recalled, core, ancient] = await insertMemories(owner, [
      { content: "Lives in Berlin", category: "home", createdAt: sixtyDaysAgo },
      {
        content: "Lives in Berlin",
        category: "travel",
        createdAt: sixtyDaysAgo,
        accessCount: 1,
        lastAccessedAt: sixtyDaysAgo,
      },
      { content: "Name is Ada", priority: 1, importance: 0.9, createdAt: sixtyDaysAgo },
      { content: "Once owned a red bicycle", createdAt: Date.now() - 400 * DAY },
    ]);
    await runCron();
    expect((await rowOf(never.id))?.importance).toBeCloseTo(0.125, 3);
    expect((await rowOf(core.id))?.importance).toBeCloseTo(0.225, 3);
    expect((await rowOf(recalled.id))?.importance).toBe(0.5);
    expect((await rowOf(ancient.id))?.importance).toBe(0.05);
    for (const m of [never, recalled, core, ancient]) expect((await rowOf(m.id))?.status).toBe("active");

    // Importance weighs into ranking: the recalled twin now outranks the decayed one.
    const r = await ok(stubOf(owner).recall(owner, { query: "lives in Berlin", limit: 5 }));
    expect(r.results.map((x) => x.memory.id).slice(0, 2)).toEqual([recalled.id, never.id]);

    // Idempotent in time: running again now changes nothing; 30 days later halves once more — except
    // for `never`, which that recall just touched: a recalled memory stops decaying.
    const decayedAt = (await rowOf(core.id))?.decayed_at;
    await runCron();
    expect((await rowOf(core.id))?.decayed_at).toBe(decayedAt);
    await runCron({ scheduledTime: Date.now() + 30 * DAY });
    expect((await rowOf(core.id))?.importance).toBeCloseTo(0.1125, 3);
    expect((await rowOf(never.id))?.importance).toBeCloseTo(0.125, 3);
    expect((await rowOf(never.id))?.access_count).toBe(1);
  });
});
