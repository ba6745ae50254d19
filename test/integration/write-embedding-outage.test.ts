/**
 * Every write path with the embedding model down, inside workerd with the real user Durable Object
 * and D1: save, summarize, import, update, restore and consolidation store what they were asked to
 * (the answer says what D1 now holds, and that the memory is indexed later), keyword recall finds
 * it at once, memory_stats counts it unindexed, and the Cron's repair job indexes it once the model
 * answers again. The outage is the Workers AI embedder over a fake binding, failing each way the
 * service fails (test/helpers/embedder-outage.ts).
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MaintenanceRequest } from "../../src/memory/lifecycle/lifecycle-types";
import type { Scope } from "../../src/memory/types";
import { uniqueUser } from "../helpers/api-keys";
import { OUTAGE_KINDS, type Outage, type OutageKind, outageEmbedder } from "../helpers/embedder-outage";
import { insertMemories, ok, overrideDeps, ownerOf, rowOf, runCron, stubOf } from "../helpers/lifecycle";

const POLICY = { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 };
const maintenance = (jobs: MaintenanceRequest["jobs"]): MaintenanceRequest => ({
  now: Date.now(),
  jobs,
  policy: POLICY,
  budget: { maxMs: 10_000, maxRows: 500 },
});

/**
 * A fresh owner whose Durable Object runs the outage embedder (up until `outage.down` is set). The
 * full-text table gets a few unrelated rows first: FTS5 gives a word found in more than half of its
 * rows no weight (idf clamped), so keyword recall needs a store of more than a memory or two.
 */
async function ownerWithOutage(kind: OutageKind = "throws"): Promise<{ owner: Scope; outage: Outage }> {
  const owner = ownerOf(uniqueUser("embed-out"));
  const outage: Outage = { down: false, failedCalls: 0 };
  await insertMemories(owner, [
    { content: "Has a season ticket for the opera" },
    { content: "Walks to work along the canal" },
    { content: "Collects enamel pins from museums" },
  ]);
  await overrideDeps(owner, (deps) => ({ embedder: outageEmbedder(deps.embedder, kind, outage) }));
  await ok(stubOf(owner).maintain(owner, maintenance(["repair"])));
  return { owner, outage };
}

async function recalledIds(owner: Scope, query: string): Promise<string[]> {
  const r = await ok(stubOf(owner).recall(owner, { query, limit: 10 }));
  return r.results.map((x) => x.memory.id);
}

const unindexed = async (owner: Scope) => (await ok(stubOf(owner).stats(owner))).activeUnindexed;

/** Unhandled rejections seen while a test runs (the save's similarity search must never leave one). */
const rejections: unknown[] = [];
const onRejection = (event: PromiseRejectionEvent) => rejections.push(event.reason);
beforeEach(() => {
  rejections.length = 0;
  globalThis.addEventListener("unhandledrejection", onRejection);
});
afterEach(() => {
  globalThis.removeEventListener("unhandledrejection", onRejection);
  expect(rejections).toEqual([]);
});

describe("save_memory with the embedding model down (real DO + D1)", () => {
  it.each(OUTAGE_KINDS)(
    "stores the memory when the embedder %s, finds it by keyword, indexes it later",
    async (kind) => {
      const { owner, outage } = await ownerWithOutage(kind);
      outage.down = true;
      const saved = await ok(stubOf(owner).save(owner, { content: "My cousin Oskar repairs harpsichords in Ghent" }));
      expect(outage.failedCalls).toBeGreaterThan(0);
      expect(saved.status).toBe("created");
      expect(saved.memory).toMatchObject({ status: "active", indexedAt: null });
      const row = await rowOf(saved.id!);
      expect(row).toMatchObject({ content: "My cousin Oskar repairs harpsichords in Ghent", indexed_at: null });
      expect(await recalledIds(owner, "who repairs harpsichords?")).toContain(saved.id);
      expect(await unindexed(owner)).toBe(1);

      outage.down = false;
      await runCron();
      expect((await rowOf(saved.id!))?.indexed_at).toEqual(expect.any(Number));
      expect(await unindexed(owner)).toBe(0);
      expect(await recalledIds(owner, "harpsichords in Ghent")).toContain(saved.id);
    },
  );

  it("merges a restatement and stores a new fact by their words alone", async () => {
    const { owner, outage } = await ownerWithOutage();
    const first = await ok(stubOf(owner).save(owner, { content: "I love sushi" }));
    outage.down = true;
    const again = await ok(stubOf(owner).save(owner, { content: "I really love sushi" }));
    expect(again).toMatchObject({ status: "merged", id: first.id });
    const more = await ok(stubOf(owner).save(owner, { content: "I love sushi and ramen" }));
    expect(more.status).toBe("created");
    expect(more.id).not.toBe(first.id);
    const flipped = await ok(stubOf(owner).save(owner, { content: "I don't love sushi" }));
    expect(flipped.status).toBe("superseded");
    expect(flipped.supersededIds).toContain(first.id);
  });

  it("an exact duplicate still merges, whatever the similarity search did", async () => {
    const { owner, outage } = await ownerWithOutage("timeout");
    const first = await ok(stubOf(owner).save(owner, { content: "The spare key is under the blue pot" }));
    outage.down = true;
    const again = await ok(stubOf(owner).save(owner, { content: "The spare key is under the blue pot" }));
    expect(again).toMatchObject({ status: "merged", id: first.id });
  });
});

describe("the other write paths with the embedding model down (real DO + D1)", () => {
  it("summarize_conversation saves every fact, each indexed later", async () => {
    const { owner, outage } = await ownerWithOutage("429");
    outage.down = true;
    const r = await ok(
      stubOf(owner).summarize(owner, {
        transcript: "User: I live in Bergen.\nAssistant: Nice.\nUser: My dog is called Biscuit.",
      }),
    );
    expect(r.outcomes.length).toBeGreaterThanOrEqual(2);
    for (const o of r.outcomes) expect(o).toMatchObject({ status: "created", indexedLater: true });
    expect(await unindexed(owner)).toBe(r.outcomes.length);
    expect(await recalledIds(owner, "dog Biscuit")).toContain(r.outcomes.find((o) => /Biscuit/.test(o.content))?.id);
  });

  it("an import stores every line unindexed and says so", async () => {
    const { owner, outage } = await ownerWithOutage("wrong size");
    outage.down = true;
    const lines = ["Prefers window seats on trains", "Allergic to hazelnuts", "Plays the viola on Sundays"].map(
      (content, i) => ({ line: i + 1, input: { content, external_id: `ext-${i}` } }),
    );
    const r = await ok(stubOf(owner).import(owner, lines));
    expect(r).toMatchObject({ imported: 3, indexed: 0, indexed_later: 3, skipped: 0 });
    expect(await unindexed(owner)).toBe(3);
    expect(await recalledIds(owner, "hazelnuts")).toContain(r.items[1].id);
    outage.down = false;
    await ok(stubOf(owner).maintain(owner, maintenance(["repair"])));
    expect(await unindexed(owner)).toBe(0);
  });

  it("update_memory commits the new text and answers it, never an error after the commit", async () => {
    const { owner, outage } = await ownerWithOutage("too few vectors");
    const saved = await ok(stubOf(owner).save(owner, { content: "I drive a green Volvo" }));
    outage.down = true;
    const r = await ok(stubOf(owner).update(owner, { id: saved.id!, content: "I drive a red Saab" }));
    expect(r.memory).toMatchObject({ content: "I drive a red Saab", status: "active", indexedAt: null });
    expect(await rowOf(saved.id!)).toMatchObject({ content: "I drive a red Saab", indexed_at: null });
    expect(await recalledIds(owner, "Saab")).toContain(saved.id);
    expect(await unindexed(owner)).toBe(1);
    outage.down = false;
    await runCron();
    expect(await unindexed(owner)).toBe(0);
  });

  it("restore_memory re-activates the memory and answers it, indexed later", async () => {
    const { owner, outage } = await ownerWithOutage();
    const saved = await ok(stubOf(owner).save(owner, { content: "My locker code is on the fridge" }));
    await ok(stubOf(owner).delete(owner, { id: saved.id! }));
    outage.down = true;
    const restored = await ok(stubOf(owner).restore(owner, saved.id!));
    expect(restored).toMatchObject({ status: "active", indexedAt: null });
    expect(await rowOf(saved.id!)).toMatchObject({ status: "active", indexed_at: null });
    expect(await recalledIds(owner, "locker code")).toContain(saved.id);
    expect(await unindexed(owner)).toBe(1);
  });

  it("restore_memory with the model up answers the memory indexed", async () => {
    const { owner } = await ownerWithOutage();
    const saved = await ok(stubOf(owner).save(owner, { content: "The bike lock combination is in my wallet" }));
    await ok(stubOf(owner).delete(owner, { id: saved.id! }));
    const restored = await ok(stubOf(owner).restore(owner, saved.id!));
    expect(restored.indexedAt).toEqual(expect.any(Number));
    expect((await rowOf(saved.id!))?.indexed_at).toBe(restored.indexedAt);
  });

  it("consolidation folds same-text duplicates by their words and compares them again once the model is back", async () => {
    const { owner, outage } = await ownerWithOutage();
    const [a, b] = await insertMemories(owner, [
      { content: "Likes hiking in the Dolomites", createdAt: Date.now() - 2000 },
      { content: "Likes hiking in the Dolomites", createdAt: Date.now() - 1000 },
    ]);
    outage.down = true;
    const report = await ok(stubOf(owner).maintain(owner, maintenance(["consolidate"])));
    const job = report.jobs.find((j) => j.job === "consolidate");
    expect(job).toMatchObject({ changed: 1, complete: false });
    expect(job?.error).toMatch(/embedding model unavailable/);
    const statuses = [(await rowOf(a.id))?.status, (await rowOf(b.id))?.status].sort();
    expect(statuses).toEqual(["active", "superseded"]);
    // Not marked: the seeds are compared again, with vectors, when the model answers.
    expect((await rowOf(a.id))?.consolidated_at ?? null).toBeNull();
    outage.down = false;
    const after = await ok(stubOf(owner).maintain(owner, maintenance(["repair", "consolidate"])));
    expect(after.jobs.find((j) => j.job === "consolidate")).toMatchObject({ complete: true });
    expect(after.jobs.every((j) => j.error === undefined)).toBe(true);
  });

  it("repair during the outage halts with the reason and leaves the rows for the next run", async () => {
    const { owner, outage } = await ownerWithOutage();
    outage.down = true;
    await ok(stubOf(owner).save(owner, { content: "Keeps bees on the roof" }));
    const report = await ok(stubOf(owner).maintain(owner, maintenance(["repair"])));
    expect(report.jobs[0]).toMatchObject({ complete: false, changed: 0 });
    expect(report.jobs[0].error).toMatch(/embedding model unavailable for 1 memories/);
    expect(await unindexed(owner)).toBe(1);
    const dbRow = await env.DB.prepare("SELECT count(*) AS n FROM memories WHERE user_id = ? AND indexed_at IS NULL")
      .bind(owner.userId)
      .first<number>("n");
    expect(dbRow).toBe(1);
  });
});
