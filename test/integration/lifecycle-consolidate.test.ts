import { describe, expect, it } from "vitest";
import type { Memory } from "../../src/memory/types";
import { uniqueUser } from "../helpers/api-keys";
import { eventsOf, insertMemories, ok, overrideDeps, ownerOf, rowOf, runCron, stubOf } from "../helpers/lifecycle";

const T0 = Date.now() - 60_000;

function pythonFragments(): (Partial<Memory> & { content: string })[] {
  return [
    { content: "I like Python", tags: ["lang"], priority: 3, createdAt: T0 },
    { content: "I like python!", tags: ["coding"], priority: 2, createdAt: T0 + 1000 },
    { content: "I really like Python", priority: 4, createdAt: T0 + 2000 },
    { content: "I like Python a lot", priority: 3, createdAt: T0 + 3000 },
    { content: "I love Python", accessCount: 2, createdAt: T0 + 4000 },
  ];
}

describe("consolidation on the cron", () => {
  it("folds five 'I like Python' fragments into one, superseding the rest with derived_from links", async () => {
    const owner = ownerOf(uniqueUser());
    const fragments = await insertMemories(owner, pythonFragments());
    const winner = fragments[3];
    const [against, work, privateOne, cat] = await insertMemories(owner, [
      { content: "I don't like Python", createdAt: T0 + 5000 },
      { content: "I like Python", category: "work", createdAt: T0 + 6000 },
      { content: "I like Python", agentId: "cursor", createdAt: T0 + 7000 },
      { content: "My cat is called Miso", createdAt: T0 + 8000 },
    ]);

    await runCron();

    const kept = await rowOf(winner.id);
    expect(kept?.status).toBe("active");
    expect(JSON.parse(kept!.derived_from as string).sort()).toEqual(
      fragments
        .filter((f) => f !== winner)
        .map((f) => f.id)
        .sort(),
    );
    expect(JSON.parse(kept!.tags as string).sort()).toEqual(["coding", "lang"]);
    expect(kept?.priority).toBe(2);
    expect(kept?.access_count).toBe(2);
    for (const f of fragments.filter((f) => f !== winner)) {
      const row = await rowOf(f.id);
      expect(row, f.content).toMatchObject({ status: "superseded", superseded_by: winner.id });
      expect((await eventsOf(f.id)).at(-1)).toMatchObject({ op: "supersede", actor: "cron" });
    }
    expect((await eventsOf(winner.id)).at(-1)?.op).toBe("merge");
    // A contradiction, another category, another agent's private memory and an unrelated one stay.
    for (const m of [against, work, privateOne, cat]) expect((await rowOf(m.id))?.status, m.content).toBe("active");

    const stats = await ok(stubOf(owner).stats(owner));
    expect(stats.byStatus).toEqual({ active: 5, superseded: 4 });
    expect(stats.inSync).toBe(true);
  });

  it("is idempotent: a second run merges nothing more and a later duplicate joins the survivor", async () => {
    const owner = ownerOf(uniqueUser());
    const fragments = await insertMemories(owner, pythonFragments());
    await runCron();
    const before = await ok(stubOf(owner).stats(owner));
    await runCron();
    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ byStatus: before.byStatus });

    const [late] = await insertMemories(owner, [{ content: "i like python", createdAt: Date.now() }]);
    await runCron();
    expect(await rowOf(late.id)).toMatchObject({ status: "superseded", superseded_by: fragments[3].id });
  });

  it("leaves a cluster alone when its user changes a member while it is being decided", async () => {
    const owner = ownerOf(uniqueUser());
    const [a, b] = await insertMemories(owner, [
      { content: "I drink green tea every morning", createdAt: T0 },
      { content: "I drink green tea every morning!", createdAt: T0 + 1 },
    ]);
    // The Llm's last look at the cluster is the moment the user edits one of its fragments.
    await overrideDeps(owner, (d) => ({
      llm: Object.assign(Object.create(d.llm), {
        async decideConflict(content: string, candidates: { handle: number; content: string; category: string }[]) {
          await d.repo.write(
            owner,
            [],
            [
              {
                id: a.id,
                changes: { tags: ["edited"], updatedAt: Date.now() + 5 },
                event: { op: "update", before: null, after: { tags: ["edited"] }, actor: "user", at: Date.now() },
              },
            ],
          );
          return d.llm.decideConflict(content, candidates);
        },
      }),
    }));
    const report = await ok(
      stubOf(owner).maintain(owner, {
        now: Date.now(),
        jobs: ["consolidate"],
        budget: { maxMs: 10_000, maxRows: 100 },
        policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
      }),
    );
    expect(report.jobs[0]).toMatchObject({ processed: 2, changed: 0, complete: true });
    expect((await rowOf(a.id))?.status).toBe("active");
    expect((await rowOf(b.id))?.status).toBe("active");
    expect(JSON.parse((await rowOf(a.id))!.tags as string)).toEqual(["edited"]);
  });

  it("merges only within one user", async () => {
    const alice = ownerOf(uniqueUser("alice"));
    const bob = ownerOf(uniqueUser("bob"));
    const [a] = await insertMemories(alice, [{ content: "I like Python" }]);
    const [b] = await insertMemories(bob, [{ content: "I like Python" }]);
    await runCron();
    expect((await rowOf(a.id))?.status).toBe("active");
    expect((await rowOf(b.id))?.status).toBe("active");
  });

  it("a full pass (consolidate_memories all=true) resumes from its cursor across budget-limited runs", async () => {
    const owner = ownerOf(uniqueUser());
    const topics = ["tea", "chess", "rain", "jazz", "maps", "kites"];
    const rows = topics.flatMap((t, i) => [
      { content: `I enjoy ${t} every weekend`, createdAt: T0 + i * 10 },
      { content: `I enjoy ${t} every weekend!`, createdAt: T0 + i * 10 + 1 },
    ]);
    await insertMemories(owner, rows);
    const request = (maxRows: number) => ({
      now: Date.now(),
      jobs: ["consolidate" as const],
      full: { consolidate: true },
      budget: { maxMs: 10_000, maxRows },
      policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 4 },
    });
    const first = await ok(stubOf(owner).maintain(owner, request(4)));
    expect(first.jobs[0]).toMatchObject({ processed: 4, complete: false });
    let runs = 1;
    let last = first;
    while (!last.complete && runs < 10) {
      last = await ok(stubOf(owner).maintain(owner, request(4)));
      runs++;
    }
    expect(last.complete).toBe(true);
    const stats = await ok(stubOf(owner).stats(owner));
    expect(stats.byStatus).toEqual({ active: 6, superseded: 6 });
  });
});
