import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import { WorkersAiEmbedder } from "../../src/providers/workers-ai-embedder";
import { NoReranker, WorkersAiReranker } from "../../src/providers/workers-ai-reranker";

function fakeAi(run: (model: string, input: Record<string, unknown>) => unknown) {
  const calls: { model: string; input: Record<string, unknown> }[] = [];
  const ai = {
    run: async (model: string, input: Record<string, unknown>) => {
      calls.push({ model, input });
      return run(model, input);
    },
  };
  return { ai: ai as unknown as Ai, calls };
}

describe("WorkersAiEmbedder", () => {
  it("batches at most 100 texts per call and L2-normalises", async () => {
    const { ai, calls } = fakeAi((_m, input) => ({ data: (input.text as string[]).map((_, i) => [3, 4, i]) }));
    const embedder = new WorkersAiEmbedder(ai, "@cf/baai/bge-m3", 3);
    const texts = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const vectors = await embedder.embed(texts);
    expect(calls.map((c) => (c.input.text as string[]).length)).toEqual([100, 100, 50]);
    expect(calls[0].model).toBe("@cf/baai/bge-m3");
    expect(vectors).toHaveLength(250);
    const norm = Math.hypot(...vectors[0]);
    expect(norm).toBeCloseTo(1, 5);
    expect(vectors[0][0]).toBeCloseTo(0.6, 5);
  });

  it("turns a provider failure or a short answer into provider_unavailable", async () => {
    const failing = new WorkersAiEmbedder(
      fakeAi(() => {
        throw new Error("3040: capacity");
      }).ai,
      "m",
      3,
    );
    await expect(failing.embed(["x"])).rejects.toMatchObject({ code: "provider_unavailable" });
    const short = new WorkersAiEmbedder(fakeAi(() => ({ data: [] })).ai, "m", 3);
    await expect(short.embed(["x"])).rejects.toBeInstanceOf(MemoryError);
  });
});

describe("WorkersAiReranker", () => {
  it("maps scores back to document order by id", async () => {
    const { ai, calls } = fakeAi(() => ({
      response: [
        { id: 2, score: 0.9 },
        { id: 0, score: 0.1 },
        { id: 1, score: 0.5 },
      ],
    }));
    const scores = await new WorkersAiReranker(ai, "@cf/baai/bge-reranker-base").rerank("q", ["a", "b", "c"]);
    expect(scores).toEqual([0.1, 0.5, 0.9]);
    expect(calls[0].input).toMatchObject({ query: "q", contexts: [{ text: "a" }, { text: "b" }, { text: "c" }] });
  });

  it("ignores out-of-range ids and skips the call for no documents", async () => {
    const { ai, calls } = fakeAi(() => ({
      response: [
        { id: 7, score: 1 },
        { id: 0, score: 0.3 },
      ],
    }));
    const reranker = new WorkersAiReranker(ai, "r");
    expect(await reranker.rerank("q", ["a", "b"])).toEqual([0.3, 0]);
    expect(await reranker.rerank("q", [])).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("the none reranker keeps every score equal", async () => {
    expect(await new NoReranker().rerank("q", ["a", "b"])).toEqual([0, 0]);
  });
});
