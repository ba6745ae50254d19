/** Workers AI embedder and reranker over fakes typed by each model's input and output (test/helpers/fake-ai.ts). */
import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import {
  EMBED_BATCH_CHARS,
  EMBED_BATCH_TEXTS,
  embeddingBatches,
  WorkersAiEmbedder,
} from "../../src/providers/workers-ai-embedder";
import { NoReranker, rerankRelevance, WorkersAiReranker } from "../../src/providers/workers-ai-reranker";
import { FakeEmbeddingAi, FakeRerankerAi } from "../helpers/fake-ai";

const BGE_M3 = "@cf/baai/bge-m3";
const RERANKER = "@cf/baai/bge-reranker-base";

describe("WorkersAiEmbedder", () => {
  it("batches at most 100 texts per call, asks the model to truncate, and L2-normalises", async () => {
    const ai = new FakeEmbeddingAi((texts) => ({ data: texts.map((_, i) => [3, 4, i]), shape: [texts.length, 3] }));
    const embedder = new WorkersAiEmbedder(ai, BGE_M3, 3);
    const texts = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const vectors = await embedder.embed(texts);
    expect(ai.calls.map((c) => ("text" in c.inputs ? c.inputs.text.length : 0))).toEqual([100, 100, 50]);
    expect(ai.calls[0].model).toBe(BGE_M3);
    expect(ai.calls.every((c) => "truncate_inputs" in c.inputs && c.inputs.truncate_inputs === true)).toBe(true);
    expect(vectors).toHaveLength(250);
    expect(Math.hypot(...vectors[0])).toBeCloseTo(1, 5);
    expect(vectors[0][0]).toBeCloseTo(0.6, 5);
  });

  it("sizes batches by total characters as well as by count, keeping order", () => {
    const long = "长".repeat(EMBED_BATCH_CHARS / 4);
    const texts = [...Array.from({ length: 9 }, () => long), "short", "x".repeat(EMBED_BATCH_CHARS * 2), "tail"];
    const batches = embeddingBatches(texts);
    expect(batches.flat()).toEqual(texts);
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(EMBED_BATCH_TEXTS);
      // A batch over the budget is only ever one text the model truncates itself.
      if (b.length > 1) expect(b.join("").length).toBeLessThanOrEqual(EMBED_BATCH_CHARS);
    }
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2, 1, 1]);
    expect(embeddingBatches([])).toEqual([]);
  });

  it("turns a provider failure, a timeout or a short answer into provider_unavailable", async () => {
    const failing = new WorkersAiEmbedder(
      new FakeEmbeddingAi(() => Promise.reject(new Error("3040: capacity"))),
      BGE_M3,
      3,
    );
    await expect(failing.embed(["x"])).rejects.toMatchObject({ code: "provider_unavailable" });
    const hung = new WorkersAiEmbedder(new FakeEmbeddingAi(() => new Promise<never>(() => {})), BGE_M3, 3, 30);
    await expect(hung.embed(["x"])).rejects.toMatchObject({ code: "provider_unavailable" });
    const short = new WorkersAiEmbedder(new FakeEmbeddingAi(() => ({ data: [] })), BGE_M3, 3);
    await expect(short.embed(["x"])).rejects.toBeInstanceOf(MemoryError);
    const queued = new WorkersAiEmbedder(new FakeEmbeddingAi(() => ({ request_id: "r1" })), BGE_M3, 3);
    await expect(queued.embed(["x"])).rejects.toMatchObject({ code: "provider_unavailable" });
  });
});

describe("WorkersAiReranker", () => {
  it("maps every score with one rule (sigmoid of the logit) back to document order", async () => {
    const ai = new FakeRerankerAi(() => ({
      response: [
        { id: 2, score: 3.2 },
        { id: 0, score: -4.1 },
        { id: 1, score: 0.4 },
      ],
    }));
    const scores = await new WorkersAiReranker(ai, RERANKER).rerank("q", ["a", "b", "c"]);
    expect(scores).toEqual([rerankRelevance(-4.1), rerankRelevance(0.4), rerankRelevance(3.2)]);
    expect(scores[0]).toBeLessThan(0.05);
    expect(scores[2]).toBeGreaterThan(0.95);
    // A score already inside [0, 1] is a logit like any other: no second rule.
    expect(rerankRelevance(0.5)).toBeCloseTo(0.6225, 4);
    expect(ai.calls[0].inputs).toMatchObject({ query: "q", contexts: [{ text: "a" }, { text: "b" }, { text: "c" }] });
  });

  it("reads the documented example: Cloudflare's request, BGE's logits and their sigmoid", async () => {
    // Cloudflare's model page (workers-ai/models/bge-reranker-base): this query and these contexts;
    // "the score can be mapped to a float value in [0,1] by sigmoid function". It shows no answer, so
    // the scores are the ones BAAI documents for its rerankers' raw output and their normalize=True
    // values: -5.65234375 → 0.003497010252573502; "what is panda?" → -8.1875 ("hi") and 5.26171875.
    const ai = new FakeRerankerAi(() => ({
      response: [
        { id: 1, score: 5.26171875 },
        { id: 0, score: -8.1875 },
      ],
    }));
    const reranker = new WorkersAiReranker(ai, RERANKER);
    const scores = await reranker.rerank("Which one is cooler?", ["a cyberpunk lizzard", "a cyberpunk cat"]);
    expect(ai.calls[0].inputs).toEqual({
      query: "Which one is cooler?",
      contexts: [{ text: "a cyberpunk lizzard" }, { text: "a cyberpunk cat" }],
      top_k: 2,
    });
    expect(scores[0]).toBeCloseTo(0.00027803096387751553, 12);
    expect(scores[1]).toBeCloseTo(0.9948403768236574, 12);
    expect(rerankRelevance(-5.65234375)).toBeCloseTo(0.003497010252573502, 12);
  });

  it("ignores out-of-range ids and missing scores, and skips the call for no documents", async () => {
    const ai = new FakeRerankerAi(() => ({ response: [{ id: 7, score: 1 }, { id: 0, score: 0.3 }, { id: 1 }] }));
    const reranker = new WorkersAiReranker(ai, RERANKER);
    expect(await reranker.rerank("q", ["a", "b"])).toEqual([rerankRelevance(0.3), 0]);
    expect(await reranker.rerank("q", [])).toEqual([]);
    expect(ai.calls).toHaveLength(1);
  });

  it("throws provider_unavailable on an error or a timeout (recall keeps the fused order)", async () => {
    const failing = new WorkersAiReranker(new FakeRerankerAi(() => Promise.reject(new Error("3040"))), RERANKER);
    await expect(failing.rerank("q", ["a"])).rejects.toMatchObject({ code: "provider_unavailable" });
    const hung = new WorkersAiReranker(new FakeRerankerAi(() => new Promise<never>(() => {})), RERANKER, 30);
    await expect(hung.rerank("q", ["a"])).rejects.toMatchObject({ code: "provider_unavailable" });
  });

  it("the none reranker keeps every score equal", async () => {
    expect(await new NoReranker().rerank("q", ["a", "b"])).toEqual([0, 0]);
  });
});
