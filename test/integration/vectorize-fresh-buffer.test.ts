import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MemoryRepo } from "../../src/memory/ports";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

const scopeOf = (userId: string) => ({ accountId: "default", namespace: "user", userId, actor: "test" });

/** Lexical search switched off, so only the dense path (index + fresh buffer) can find a memory. */
function denseOnlyRepo(): MemoryRepo {
  const repo = new D1MemoryRepo(env.DB);
  return Object.assign(Object.create(repo) as MemoryRepo, {
    searchText: async () => [],
    searchTextRows: async () => ({ hits: [], rows: [] }),
    searchLexical: async () => ({ hits: [], rows: [], corpusSize: 0 }),
  });
}

describe("Vectorize adapter against an eventually consistent fake", () => {
  it("scopes queries to the owner with a metadata filter and returns ids only", async () => {
    const fake = new FakeVectorize();
    const index = new VectorizeVectorIndex(fake as unknown as VectorizeIndex);
    const [v] = await new LocalHashEmbedder().embed(["I love sushi"]);
    await index.upsert(scopeOf("a"), [{ id: "m-a", vector: v }]);
    await index.upsert(scopeOf("b"), [{ id: "m-b", vector: v }]);
    expect(await index.query(scopeOf("a"), v, 10)).toEqual([]);
    fake.flush();
    const hits = await index.query(scopeOf("a"), v, 10);
    expect(hits.map((h) => h.id)).toEqual(["m-a"]);
    expect(hits[0].score).toBeCloseTo(1, 5);
  });

  it("makes a memory recallable the moment it is saved, before the index shows it", async () => {
    const fake = new FakeVectorize();
    const service = testService({
      index: new VectorizeVectorIndex(fake as unknown as VectorizeIndex),
      repo: denseOnlyRepo(),
    });
    const scope = scopeOf(uniqueUser());
    const saved = await service.save(scope, { content: "Prefers TypeScript for all new code" });
    expect(saved.status).toBe("created");
    expect(fake.size).toBe(0);
    const before = await service.recall(scope, { query: "prefers typescript code" }, 5);
    expect(before.results.map((r) => r.memory.id)).toEqual([saved.id]);
    expect(service.deps.fresh.size).toBe(1);
    fake.flush();
    const after = await service.recall(scope, { query: "prefers typescript code" }, 5);
    expect(after.results.map((r) => r.memory.id)).toEqual([saved.id]);
    expect(service.deps.fresh.size).toBe(0);
  });

  it("without the fresh buffer the same unflushed memory would be invisible to dense recall", async () => {
    const fake = new FakeVectorize();
    const service = testService({
      index: new VectorizeVectorIndex(fake as unknown as VectorizeIndex),
      repo: denseOnlyRepo(),
    });
    const scope = scopeOf(uniqueUser());
    await service.save(scope, { content: "Prefers TypeScript for all new code" });
    service.deps.fresh.remove([...(await service.list(scope, {})).memories.map((m) => m.id)]);
    const r = await service.recall(scope, { query: "prefers typescript code" }, 5);
    expect(r.results).toEqual([]);
  });
});

describe("a failed upsert on an immediately consistent (local) index", () => {
  it("keeps the memory recallable through the fresh buffer until repair", async () => {
    const failingLocal = {
      kind: "local" as const,
      eventual: false,
      upsert: async () => {
        throw new Error("SQLITE_FULL");
      },
      query: async () => [],
      remove: async () => {},
    };
    const service = testService({ index: failingLocal, repo: denseOnlyRepo() });
    const scope = scopeOf(uniqueUser());
    const saved = await service.save(scope, { content: "Prefers TypeScript for all new code" });
    expect(saved.status).toBe("created");
    const row = await env.DB.prepare("SELECT indexed_at FROM memories WHERE id = ?")
      .bind(saved.id)
      .first<{ indexed_at: number | null }>();
    expect(row?.indexed_at).toBeNull();
    const r = await service.recall(scope, { query: "prefers typescript code" }, 5);
    expect(r.results.map((x) => x.memory.id)).toEqual([saved.id]);
  });
});
