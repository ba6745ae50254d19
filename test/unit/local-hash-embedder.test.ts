/**
 * @module test/unit/local-hash-embedder
 * The offline embedder's contract (deterministic, unit-norm, right size) and that its cosine
 * ranks related memories above unrelated ones in English and Chinese.
 */
import { describe, expect, it } from "vitest";
import { cosine } from "../../src/memory/vector-math";
import { FEATURE_CACHE_MAX, LocalHashEmbedder, WORD_CACHE_MAX } from "../../src/providers/local-hash-embedder";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

async function similarity(embedder: LocalHashEmbedder, a: string, b: string): Promise<number> {
  const [va, vb] = await embedder.embed([a, b]);
  return cosine(va, vb);
}

describe("LocalHashEmbedder", () => {
  const embedder = new LocalHashEmbedder();

  it("defaults to 384 dimensions and model local-hash-v1", () => {
    expect(embedder.dimensions).toBe(384);
    expect(embedder.model).toBe("local-hash-v1");
    const custom = new LocalHashEmbedder({ dimensions: 64, model: "local-hash-test" });
    expect(custom.dimensions).toBe(64);
    expect(custom.model).toBe("local-hash-test");
  });

  it("rejects a dimension count that is not a positive integer", () => {
    expect(() => new LocalHashEmbedder({ dimensions: 0 })).toThrow(RangeError);
    expect(() => new LocalHashEmbedder({ dimensions: 1.5 })).toThrow(RangeError);
  });

  it("returns one unit-length vector per text, in order", async () => {
    const texts = ["Prefers TypeScript", "繁星喜欢哥特风服装", "x"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(384);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const [single] = await embedder.embed(["繁星喜欢哥特风服装"]);
    expect(Array.from(single)).toEqual(Array.from(vectors[1]));
  });

  it("is deterministic across instances", async () => {
    const [a] = await embedder.embed(["I had ramen for dinner"]);
    const [b] = await new LocalHashEmbedder().embed(["I had ramen for dinner"]);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it("returns a zero vector, not NaN, for text with no tokens", async () => {
    for (const text of ["", "   ", "?!…", "the what is"]) {
      const [v] = await embedder.embed([text]);
      expect(v.length).toBe(384);
      expect(v.every((x) => x === 0)).toBe(true);
    }
  });

  it("ranks a related English question above an unrelated memory", async () => {
    const memory = "Prefers TypeScript for all new code";
    const related = await similarity(embedder, memory, "which language do I prefer for new code?");
    const unrelated = await similarity(embedder, memory, "I had ramen for dinner");
    const unrelatedToQuery = await similarity(
      embedder,
      "which language do I prefer for new code?",
      "I had ramen for dinner",
    );
    expect(related).toBeGreaterThan(0.3);
    expect(related).toBeGreaterThan(unrelated);
    expect(related).toBeGreaterThan(unrelatedToQuery);
  });

  it("ranks a related Chinese question above a memory that only shares 喜欢", async () => {
    const clothes = "繁星喜欢哥特风服装";
    const colours = "喜欢的颜色是黑色、暗红色和紫色";
    const query = "喜欢什么服装";
    expect(await similarity(embedder, clothes, query)).toBeGreaterThan(await similarity(embedder, clothes, colours));
    expect(await similarity(embedder, query, clothes)).toBeGreaterThan(await similarity(embedder, query, colours));
  });

  it("treats inflections as the same word and spelling variants as close", async () => {
    expect(await similarity(embedder, "running shoes", "runs in shoes")).toBeGreaterThan(0.8);
    const variant = await similarity(embedder, "favourite colours", "favorite color");
    const unrelated = await similarity(embedder, "favourite colours", "drives an electric car");
    expect(variant).toBeGreaterThan(0.1);
    expect(variant).toBeGreaterThan(unrelated + 0.1);
  });
});

describe("LocalHashEmbedder word cache", () => {
  it("stays within its bound over more distinct words than it holds, and vectors stay the same", async () => {
    const cached = new LocalHashEmbedder();
    const words = Array.from({ length: 2 * WORD_CACHE_MAX + 1_500 }, (_, i) => `w${i.toString(36)}x`);
    const texts = Array.from({ length: words.length / 10 }, (_, i) => words.slice(i * 10, i * 10 + 10).join(" "));
    const before = await cached.embed(texts.slice(0, 20));
    for (let i = 0; i < texts.length; i += 100) {
      await cached.embed(texts.slice(i, i + 100));
      expect(cached.cachedWords).toBeLessThanOrEqual(2 * WORD_CACHE_MAX);
      expect(cached.cachedFeatures).toBeLessThanOrEqual(FEATURE_CACHE_MAX);
    }
    expect(cached.cachedWords).toBeGreaterThan(WORD_CACHE_MAX);
    expect(await cached.embed(texts.slice(0, 20))).toEqual(before);
    expect(await new LocalHashEmbedder().embed(texts.slice(0, 20))).toEqual(before);
  });

  it("shares one hashed feature between the words that have it", async () => {
    const alone = new LocalHashEmbedder();
    await alone.embed(["planned"]);
    const both = new LocalHashEmbedder();
    await both.embed(["planning"]);
    const before = both.cachedFeatures;
    await both.embed(["planned"]);
    // "planned" shares its stem and "<pl", "pla", "lan", "ann" with "planning": fewer new features than its own.
    expect(both.cachedFeatures - before).toBeLessThan(alone.cachedFeatures);
    expect(await both.embed(["planned planning"])).toEqual(await new LocalHashEmbedder().embed(["planned planning"]));
  });

  it("gives the same vectors after its shared features were cleared (words hold their own references)", async () => {
    const cached = new LocalHashEmbedder();
    const texts = Array.from({ length: 400 }, (_, i) =>
      Array.from({ length: 40 }, (_, k) => `z${(i * 40 + k).toString(36)}${"abcdefghij"[k % 10]}v`).join(" "),
    );
    const early = await cached.embed(texts.slice(0, 5));
    await cached.embed(texts); // ~16,000 words × ~6 trigrams: past FEATURE_CACHE_MAX, so cleared at least once
    expect(cached.cachedFeatures).toBeLessThanOrEqual(FEATURE_CACHE_MAX);
    expect(await cached.embed(texts.slice(0, 5))).toEqual(early);
    expect(await new LocalHashEmbedder().embed(texts.slice(0, 5))).toEqual(early);
  });
});
