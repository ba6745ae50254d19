import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildLifecycleScan, buildMemoryService, buildShardStores } from "../../src/composition";
import { loadConfig } from "../../src/config";
import { overrideDepsForTest, type UserMemory } from "../../src/durable/user-memory";
import type { Env } from "../../src/env";
import { runScheduledMaintenance } from "../../src/jobs/scheduled";
import type { MemoryRepo } from "../../src/memory/ports";
import { uniqueUser } from "../helpers/api-keys";
import { FailingVectorIndex } from "../helpers/failing-vector-index";
import { insertMemories, ok, overrideDeps, ownerOf, rowOf, runCron, stubOf, withDeps } from "../helpers/lifecycle";

function cron(vars: Record<string, string> = {}) {
  return runScheduledMaintenance({ ...env, ...vars } as Env, Date.now(), { scan: buildLifecycleScan });
}

async function indexedIds(owner: ReturnType<typeof ownerOf>): Promise<string[]> {
  return withDeps(owner, async (d) => ((await d.index.listIds!(owner)) ?? []).sort());
}

async function failingIndex(owner: ReturnType<typeof ownerOf>): Promise<FailingVectorIndex> {
  let fake: FailingVectorIndex | undefined;
  await overrideDeps(owner, (d) => ({ index: (fake = new FailingVectorIndex(d.index)) }));
  return fake!;
}

/** Lexical search off: only the dense path (index + fresh buffer) can find a memory. */
function denseOnly(repo: MemoryRepo): MemoryRepo {
  return Object.assign(Object.create(repo) as MemoryRepo, {
    searchText: async () => [],
    searchTextRows: async () => ({ hits: [], rows: [] }),
  });
}

describe("index repair", () => {
  it("upserts rows never indexed and deletes vectors whose rows are gone; stats report sync", async () => {
    const owner = ownerOf(uniqueUser());
    const rows = await insertMemories(owner, [
      { content: "Likes green tea" },
      { content: "Works in Porto" },
      { content: "Plays chess" },
    ]);
    const [gone] = await insertMemories(owner, [{ content: "Deleted fact", status: "deleted", deletedAt: Date.now() }]);
    await withDeps(owner, async (d) => {
      const [v] = await d.embedder.embed(["stray"]);
      await d.index.upsert(owner, [
        { id: "never-existed", vector: v },
        { id: gone.id, vector: v },
      ]);
    });
    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ activeUnindexed: 3, inSync: false });

    await runCron();

    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ activeIndexed: 3, activeUnindexed: 0, inSync: true });
    expect(await indexedIds(owner)).toEqual(rows.map((r) => r.id).sort());
    expect((await rowOf(rows[0].id))?.embedding_model).toBe("local-hash-v1");
  });

  it("a failing upsert leaves the row unindexed but recallable (lexically and via the fresh buffer); the next run repairs it", async () => {
    const owner = ownerOf(uniqueUser());
    const stub = stubOf(owner);
    const fake = await failingIndex(owner);
    fake.failUpserts = true;
    const saved = await ok(stub.save(owner, { content: "Prefers window seats on long flights" }));
    expect(saved.status).toBe("created");
    expect(await ok(stub.stats(owner))).toMatchObject({ activeUnindexed: 1, freshBuffered: 1, inSync: false });

    const lexical = await ok(stub.recall(owner, { query: "window seats", limit: 5 }));
    expect(lexical.results.map((r) => r.memory.id)).toEqual([saved.id]);
    await overrideDeps(owner, (d) => ({ repo: denseOnly(d.repo) }));
    const dense = await ok(stub.recall(owner, { query: "prefers window seats on flights", limit: 5 }));
    expect(dense.results.map((r) => r.memory.id)).toEqual([saved.id]);
    await overrideDeps(owner, (d) => ({ repo: Object.getPrototypeOf(d.repo) as MemoryRepo }));

    const failed = await cron();
    const mine = failed.outcomes.find((o) => o.owner.userId === owner.userId)!;
    expect(mine.status).toBe("partial");
    expect("report" in mine && mine.report.jobs.find((j) => j.job === "repair")?.error).toMatch(/vector upsert failed/);
    expect((await rowOf(saved.id!))?.indexed_at).toBeNull();

    fake.failUpserts = false;
    await runCron();
    expect(await ok(stub.stats(owner))).toMatchObject({ activeUnindexed: 0, inSync: true });
    expect(await indexedIds(owner)).toEqual([saved.id]);
  });

  it("a run cut short — by its row budget or by a crash mid-run — resumes and loses nothing", async () => {
    const owner = ownerOf(uniqueUser());
    const rows = await insertMemories(
      owner,
      Array.from({ length: 50 }, (_, i) => ({
        content: `Fact number ${i} about topic ${i * 7}`,
        createdAt: Date.now() - 50_000 + i,
      })),
    );
    const vars = { LIFECYCLE_BATCH_SIZE: "10", LIFECYCLE_USER_MAX_ROWS: "20" };
    const fake = await failingIndex(owner);

    const first = await cron(vars);
    expect(first.outcomes.find((o) => o.owner.userId === owner.userId)?.status).toBe("partial");
    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ activeIndexed: 20, activeUnindexed: 30 });

    fake.failAfter = fake.upsertCalls + 1; // the next run dies on its second batch
    await cron(vars);
    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ activeIndexed: 30, activeUnindexed: 20 });

    fake.failAfter = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5 && (await ok(stubOf(owner).stats(owner))).activeUnindexed > 0; i++) await cron(vars);
    expect(await ok(stubOf(owner).stats(owner))).toMatchObject({ activeIndexed: 50, activeUnindexed: 0, inSync: true });
    expect(await indexedIds(owner)).toEqual(rows.map((r) => r.id).sort());
  });
});

describe("model migration", () => {
  /** Points the user's Durable Object at the service a changed config would build (same DO storage). */
  async function switchModel(owner: ReturnType<typeof ownerOf>, vars: Record<string, string>) {
    const changed = { ...env, ...vars } as Env;
    await runInDurableObject(stubOf(owner), async (instance: UserMemory, state) => {
      const config = loadConfig(changed);
      const next = buildMemoryService(
        changed,
        config,
        state.storage.sql,
        buildShardStores(changed, config, { binding: "DB", db: env.DB }),
      );
      instance[overrideDepsForTest](() => next.deps);
    });
  }

  it("re-embeds in batches after EMBEDDING_MODEL changes while recall keeps working", async () => {
    const owner = ownerOf(uniqueUser());
    const stub = stubOf(owner);
    for (let i = 0; i < 12; i++) await ok(stub.save(owner, { content: `Visited city number ${i} called Town${i}` }));
    await ok(stub.save(owner, { content: "Prefers aisle seats on trains" }));
    await runCron(); // consolidation checks the new rows first, so the runs below spend their budget on migration
    const vars = { EMBEDDING_MODEL: "local-hash-v2", LIFECYCLE_BATCH_SIZE: "5", LIFECYCLE_USER_MAX_ROWS: "5" };
    await switchModel(owner, vars);
    expect(await ok(stub.stats(owner))).toMatchObject({
      embeddingModel: "local-hash-v2",
      activeOtherModel: 13,
      inSync: false,
    });

    await runCron({ vars });
    expect(await ok(stub.stats(owner))).toMatchObject({ activeIndexed: 5, activeOtherModel: 8 });
    const midway = await ok(stub.recall(owner, { query: "aisle seats trains", limit: 3 }));
    expect(midway.results[0].memory.content).toBe("Prefers aisle seats on trains");

    for (let i = 0; i < 3; i++) await runCron({ vars });
    expect(await ok(stub.stats(owner))).toMatchObject({ activeIndexed: 13, activeOtherModel: 0, inSync: true });
  });

  it("re-embeds when only EMBEDDING_DIMENSIONS changes, and dense recall works on the new vectors", async () => {
    const owner = ownerOf(uniqueUser());
    const stub = stubOf(owner);
    const saved = await ok(stub.save(owner, { content: "Prefers TypeScript for all new code" }));
    const vars = { EMBEDDING_DIMENSIONS: "256" };
    await switchModel(owner, vars);
    expect(await ok(stub.stats(owner))).toMatchObject({ embeddingModel: "local-hash-v1@256", activeOtherModel: 1 });
    await runCron({ vars });
    expect((await rowOf(saved.id!))?.embedding_model).toBe("local-hash-v1@256");
    await overrideDeps(owner, (d) => ({ repo: denseOnly(d.repo) }));
    const dense = await ok(stub.recall(owner, { query: "prefers typescript code", limit: 3 }));
    expect(dense.results.map((r) => r.memory.id)).toEqual([saved.id]);
  });
});
