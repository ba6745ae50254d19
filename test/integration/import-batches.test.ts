/**
 * Bulk import in bounded D1 batches, on the real D1: rows go in batches of `importBatchRows`, and a
 * batch that fails rolls the earlier ones back, so a request stays all or nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { NumberedLine } from "../../src/memory/import/import-line";
import { ownerAddress } from "../../src/memory/owner-address";
import type { MemoryRepo } from "../../src/memory/ports";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

const scopeOf = (userId: string) => ({ accountId: "default", namespace: "user", userId, actor: "test" });
const lines = (n: number): NumberedLine[] =>
  Array.from({ length: n }, (_, i) => ({ line: i + 1, input: { content: `Imported fact number ${i + 1} about tea` } }));

async function storedRows(userId: string): Promise<number> {
  const r = await env.DB.prepare("SELECT count(*) AS n FROM memories WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

/** The real D1 repo, whose `failOn`-th write (1-based) fails the way a D1 batch does. */
function repoFailingOnWrite(failOn: number): MemoryRepo & { writes: number[] } {
  const real = new D1MemoryRepo(env.DB);
  const writes: number[] = [];
  return Object.assign(Object.create(real) as MemoryRepo, {
    writes,
    write: async (...args: Parameters<MemoryRepo["write"]>) => {
      writes.push(args[1].length);
      if (writes.length === failOn) throw new Error("D1_ERROR: Network connection lost.");
      return real.write(...args);
    },
  });
}

function service(repo: MemoryRepo, importBatchRows: number) {
  const svc = testService({ index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex), repo });
  svc.deps.settings.importBatchRows = importBatchRows;
  return svc;
}

describe("bulk import in bounded D1 batches", () => {
  it("writes 250 lines as batches of 100, 100 and 50 rows and reports them", async () => {
    const userId = uniqueUser("import-batches");
    const repo = repoFailingOnWrite(Number.POSITIVE_INFINITY);
    const result = await service(repo, 100).import(scopeOf(userId), lines(250));
    expect(repo.writes).toEqual([100, 100, 50]);
    expect(result).toMatchObject({ imported: 250, batches: { count: 3, longest_ms: expect.any(Number) } });
    expect(await storedRows(userId)).toBe(250);
  });

  it("stays all or nothing: a failed third batch rolls the first two back", async () => {
    const userId = uniqueUser("import-rollback");
    const repo = repoFailingOnWrite(3);
    await expect(service(repo, 100).import(scopeOf(userId), lines(250))).rejects.toMatchObject({
      message: expect.stringMatching(/rolled back; nothing was imported/),
    });
    expect(repo.writes).toEqual([100, 100, 50]);
    expect(await storedRows(userId)).toBe(0);
    const fts = await env.DB.prepare("SELECT count(*) AS n FROM memories_fts WHERE owner = ?")
      .bind(ownerAddress(scopeOf(userId)))
      .first<{ n: number }>();
    expect(fts?.n ?? 0).toBe(0);
    // The same request again lands whole.
    const again = await service(repoFailingOnWrite(Number.POSITIVE_INFINITY), 100).import(scopeOf(userId), lines(250));
    expect(again.imported).toBe(250);
    expect(await storedRows(userId)).toBe(250);
  });

  it("writes each row once with its indexed_at (no second UPDATE), and a rollback takes the vectors too", async () => {
    const userId = uniqueUser("import-index-first");
    const real = new D1MemoryRepo(env.DB);
    const repo = Object.assign(Object.create(real) as MemoryRepo, {
      markIndexed: async () => {
        throw new Error("import must not update rows after writing them");
      },
    });
    const vectorize = new FakeVectorize();
    const svc = testService({ index: new VectorizeVectorIndex(vectorize as unknown as VectorizeIndex), repo });
    const result = await svc.import(scopeOf(userId), lines(30));
    expect(result).toMatchObject({ imported: 30, indexed: 30 });
    const unindexed = await env.DB.prepare(
      "SELECT count(*) AS n FROM memories WHERE user_id = ? AND indexed_at IS NULL",
    )
      .bind(userId)
      .first<{ n: number }>();
    expect(unindexed?.n).toBe(0);

    const failing = uniqueUser("import-index-rollback");
    const failingVectorize = new FakeVectorize();
    const failingSvc = testService({
      index: new VectorizeVectorIndex(failingVectorize as unknown as VectorizeIndex),
      repo: repoFailingOnWrite(2),
    });
    failingSvc.deps.settings.importBatchRows = 10;
    await expect(failingSvc.import(scopeOf(failing), lines(30))).rejects.toThrow(/nothing was imported/);
    failingVectorize.flush();
    expect(failingVectorize.size).toBe(0);
  });

  it("when the rollback fails too, rows left stored keep their vectors and the error quotes no database text", async () => {
    const userId = uniqueUser("import-rollback-fails");
    const failing = repoFailingOnWrite(3);
    const repo = Object.assign(failing, {
      purge: async () => {
        throw new Error("D1_ERROR: no such table while deleting 'Imported fact number 7 about tea'");
      },
    });
    const vectorize = new FakeVectorize();
    const svc = testService({ index: new VectorizeVectorIndex(vectorize as unknown as VectorizeIndex), repo });
    svc.deps.settings.importBatchRows = 10;
    const error = await svc.import(scopeOf(userId), lines(30)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "internal", message: expect.stringMatching(/lines up to 20 were stored/) });
    expect(String((error as Error).message)).not.toMatch(/D1_ERROR|Network|Imported fact/);
    const stored = await env.DB.prepare("SELECT id, indexed_at FROM memories WHERE user_id = ?")
      .bind(userId)
      .all<{ id: string; indexed_at: number | null }>();
    expect(stored.results).toHaveLength(20);
    expect(stored.results.every((r) => r.indexed_at !== null)).toBe(true);
    vectorize.flush();
    // Every stored row marked indexed has its vector; the 10 rows never written have none.
    expect(vectorize.size).toBe(20);
  });

  it("a failed first batch leaves nothing to undo", async () => {
    const userId = uniqueUser("import-first-fails");
    await expect(service(repoFailingOnWrite(1), 100).import(scopeOf(userId), lines(30))).rejects.toMatchObject({
      message: expect.stringMatching(/nothing was imported/),
    });
    expect(await storedRows(userId)).toBe(0);
  });
});
