/**
 * Recall when the embedding model fails, inside workerd with the real user Durable Object and D1:
 * the answer comes from BM25 alone (the promised keyword fallback), memory_stats says so, and the log
 * line carries no memory or query text.
 */
import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import type { Embedder } from "../../src/memory/ports";
import { uniqueUser } from "../helpers/api-keys";
import { ok, overrideDeps, ownerOf, stubOf } from "../helpers/lifecycle";

/** An embedder whose model is gone: every call fails the way the Workers AI adapter reports it. */
function failingEmbedder(like: Embedder, calls: string[][]): Embedder {
  return {
    model: like.model,
    dimensions: like.dimensions,
    embed: async (texts) => {
      calls.push(texts);
      throw new MemoryError("provider_unavailable", `Embedding model ${like.model} is unavailable: 3040: capacity`);
    },
  };
}

describe("recall with the embedding model down (real DO + D1)", () => {
  it("answers from BM25 alone, says so in memory_stats, and logs without text", async () => {
    const owner = ownerOf(uniqueUser("embed-down"));
    const stub = stubOf(owner);
    await ok(stub.save(owner, { content: "My sister Ingrid lives in Trondheim" }));
    await ok(stub.save(owner, { content: "我最喜欢的茶是武夷岩茶" }));
    await ok(stub.save(owner, { content: "I keep my bike in the basement" }));

    const embedCalls: string[][] = [];
    const logged: { message: string; data?: Record<string, unknown> }[] = [];
    await overrideDeps(owner, (deps) => ({
      embedder: failingEmbedder(deps.embedder, embedCalls),
      log: {
        warn: (message, data) => logged.push({ message, data }),
        error: (message, data) => logged.push({ message, data }),
      },
    }));

    const en = await ok(stub.recall(owner, { query: "Where does Ingrid live?", limit: 3 }));
    expect(embedCalls).toHaveLength(1);
    expect(en.results.map((r) => r.memory.content)).toContain("My sister Ingrid lives in Trondheim");
    expect(en.results.map((r) => r.memory.content)).not.toContain("I keep my bike in the basement");
    const zh = await ok(stub.recall(owner, { query: "我喜欢什么茶", limit: 3 }));
    expect(zh.results[0]?.memory.content).toBe("我最喜欢的茶是武夷岩茶");

    const stats = await ok(stub.stats(owner));
    expect(stats.recall.lexicalOnly).toBe(2);
    expect(stats.recall.lastLexicalOnlyAt).toEqual(expect.any(Number));

    const fallbacks = logged.filter((l) => l.message.includes("BM25 alone"));
    expect(fallbacks).toHaveLength(2);
    const text = JSON.stringify(logged);
    for (const secret of ["Ingrid", "Trondheim", "武夷", "茶", "basement"]) expect(text).not.toContain(secret);
  });

  it("a healthy embedder reports no keyword-only answers", async () => {
    const owner = ownerOf(uniqueUser("embed-up"));
    const stub = stubOf(owner);
    await ok(stub.save(owner, { content: "I run on Tuesdays" }));
    await ok(stub.recall(owner, { query: "When do I run?", limit: 3 }));
    expect((await ok(stub.stats(owner))).recall).toEqual({ lexicalOnly: 0, lastLexicalOnlyAt: null });
  });
});
