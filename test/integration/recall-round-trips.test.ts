import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseImportLines } from "../../src/memory/import/parse-import-lines";
import { ownerAddress } from "../../src/memory/owner-address";
import type { LexicalSearch, MemoryRepo } from "../../src/memory/ports";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { LocalVectorIndex } from "../../src/storage/vectors/local-vector-index";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

const scopeOf = (userId: string) => ({ accountId: "default", namespace: "user", userId, actor: "test" });

function stubFor(userId: string) {
  return env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scopeOf(userId))));
}

async function importInto(userId: string, contents: string[]) {
  const parsed = parseImportLines(contents.map((content) => JSON.stringify({ content })).join("\n"));
  if (!parsed.ok) throw new Error("bad test lines");
  const r = await stubFor(userId).import(scopeOf(userId), parsed.lines);
  if (!r.ok) throw new Error(r.error.message);
  return r.value.items.map((i) => i.id);
}

/** The real repository, recording what recall asks of it. */
function recordingRepo() {
  const repo = new D1MemoryRepo(env.DB);
  const calls = { getMany: 0, lexical: [] as LexicalSearch[] };
  const recording = Object.assign(Object.create(repo) as MemoryRepo, {
    getMany: (...args: Parameters<MemoryRepo["getMany"]>) => {
      calls.getMany++;
      return repo.getMany(...args);
    },
    searchLexical: (...args: Parameters<MemoryRepo["searchLexical"]>) => {
      calls.lexical.push(args[2]);
      return repo.searchLexical(...args);
    },
  });
  return { repo: recording, calls };
}

// "photographs" and "photography" share no stem (photograph / photographi), so BM25 cannot find
// the first for the second, while the hash embedder's trigrams put them above the local dense floor.
describe("recall's D1 round trips with the local index", () => {
  it("reads a dense-only candidate's row in BM25's statement: one D1 round trip, one statement", async () => {
    const userId = uniqueUser("trips");
    const [dense] = await importInto(userId, ["Photographs", "Booked a photography course for June"]);
    const r = await stubFor(userId).recall(scopeOf(userId), { query: "photography", limit: 5 });
    if (!r.ok) throw new Error(r.error.message);
    const ids = r.value.results.map((c) => c.memory.id);
    expect(ids).toContain(dense);
    expect(ids).toHaveLength(2);
    expect(r.timing.d1Sequential).toBe(1);
    // One statement: hits, the dense candidate's row, the pool's depth and bm25()'s N (storage/lexical/d1-lexical-sql.ts).
    expect(r.timing.d1Queries).toBe(1);
  });

  it("asks BM25 for the rows of the dense candidates above the floor and never calls getMany", async () => {
    const userId = uniqueUser("trips");
    const [dense, lexical] = await importInto(userId, ["Photographs", "Booked a photography course for June"]);
    const { repo, calls } = recordingRepo();
    await runInDurableObject(stubFor(uniqueUser("trips-index")), async (_i, state) => {
      const index = new LocalVectorIndex(state.storage.sql, 384);
      const vectors = await new LocalHashEmbedder().embed(["Photographs", "Booked a photography course for June"]);
      await index.upsert(scopeOf(userId), [
        { id: dense, vector: vectors[0] },
        { id: lexical, vector: vectors[1] },
      ]);
      const service = testService({ index, repo });
      const found = await service.recall(scopeOf(userId), { query: "photography" }, 5);
      expect(found.results.map((c) => c.memory.id).sort()).toEqual([dense, lexical].sort());
    });
    expect(calls.getMany).toBe(0);
    expect(calls.lexical).toHaveLength(1);
    expect(calls.lexical[0].rowsOf).toContain(dense);
  });

  it("asks a remote index beside BM25 and reads its dense-only rows afterwards", async () => {
    const userId = uniqueUser("trips");
    const [dense] = await importInto(userId, ["Photographs", "Booked a photography course for June"]);
    const fake = new FakeVectorize();
    const index = new VectorizeVectorIndex(fake as unknown as VectorizeIndex);
    // The remote index holds the query's own vector for it: a candidate close in meaning, which
    // recall answers with although BM25 does not find it (abstention keeps such a candidate).
    const [vector] = await new LocalHashEmbedder().embed(["photography"]);
    await index.upsert(scopeOf(userId), [{ id: dense, vector }]);
    fake.flush();
    const { repo, calls } = recordingRepo();
    const service = testService({ index, repo });
    const found = await service.recall(scopeOf(userId), { query: "photography" }, 5);
    expect(found.results.map((c) => c.memory.id)).toContain(dense);
    expect(calls.lexical[0].rowsOf).toBeUndefined();
    expect(calls.getMany).toBe(1);
  });
});
