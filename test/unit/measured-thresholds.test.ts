import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { denseFloor, relevance } from "../../src/memory/recall/fuse-scores";
import { isNearDuplicate, nearDuplicateBar } from "../../src/memory/write/near-duplicate";

describe("thresholds measured by npm run calibrate", () => {
  it("DENSE_RELEVANCE_FLOOR and NEAR_DUPLICATE_COSINE parse as cosines, unset by default", () => {
    const config = loadConfig({ DENSE_RELEVANCE_FLOOR: "0.42", NEAR_DUPLICATE_COSINE: "0.8" });
    expect(config.DENSE_RELEVANCE_FLOOR).toBe(0.42);
    expect(config.NEAR_DUPLICATE_COSINE).toBe(0.8);
    expect(loadConfig({}).DENSE_RELEVANCE_FLOOR).toBeUndefined();
    expect(() => loadConfig({ NEAR_DUPLICATE_COSINE: "1.5" })).toThrow(/NEAR_DUPLICATE_COSINE/);
  });

  it("the measured floor replaces the embedder's default in the relevance decision", () => {
    expect(denseFloor("workers-ai")).toBe(0.55);
    expect(denseFloor("workers-ai", 0.42)).toBe(0.42);
    const evidence = { cosine: 0.5, bm25: 0 };
    const ctx = { embedderKind: "workers-ai", corpusSize: 100, now: 0 };
    expect(relevance(evidence, ctx)).toBeNull();
    expect(relevance(evidence, { ...ctx, denseFloor: 0.42 })).toBeGreaterThan(0);
  });

  it("the measured bar replaces the embedder's default in the near-duplicate decision", () => {
    expect(nearDuplicateBar("workers-ai")).toBe(0.88);
    expect(isNearDuplicate("I really love sushi", "I love sushi", 0.85, "workers-ai")).toBe(false);
    expect(isNearDuplicate("I really love sushi", "I love sushi", 0.85, "workers-ai", 0.84)).toBe(true);
    // The token guards still apply under a measured bar.
    expect(isNearDuplicate("I don't love sushi", "I love sushi", 0.99, "workers-ai", 0.5)).toBe(false);
  });
});
