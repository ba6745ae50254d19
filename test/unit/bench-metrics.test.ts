import { describe, expect, it } from "vitest";
import {
  ndcgAt,
  percentile,
  recallAt,
  reciprocalRankAt,
  scoreQuery,
  summarizeByCategory,
} from "../../scripts/lib/bench-metrics";

const rel = (...ids: string[]) => new Set(ids);

describe("recall benchmark metrics", () => {
  it("Recall@k counts the share of relevant ids in the first k, once each", () => {
    expect(recallAt(["a", "x", "b", "y"], rel("a", "b"), 2)).toBe(0.5);
    expect(recallAt(["a", "x", "b", "y"], rel("a", "b"), 3)).toBe(1);
    expect(recallAt(["a", "a", "x"], rel("a", "b"), 3)).toBe(0.5);
    expect(recallAt([], rel("a"), 10)).toBe(0);
  });

  it("MRR@k is the reciprocal rank of the first relevant hit within k", () => {
    expect(reciprocalRankAt(["x", "y", "a"], rel("a"), 10)).toBeCloseTo(1 / 3);
    expect(reciprocalRankAt(["a"], rel("a"), 10)).toBe(1);
    expect(reciprocalRankAt(["x", "y", "a"], rel("a"), 2)).toBe(0);
  });

  it("nDCG@k divides by the ideal ranking for the number of relevant ids", () => {
    expect(ndcgAt(["a", "b"], rel("a", "b"), 10)).toBeCloseTo(1);
    // one of two relevant ids at rank 2: (1/log2 3) / (1 + 1/log2 3)
    const expected = 1 / Math.log2(3) / (1 + 1 / Math.log2(3));
    expect(ndcgAt(["x", "a"], rel("a", "b"), 10)).toBeCloseTo(expected, 10);
    expect(ndcgAt(["x", "a"], rel("a", "b"), 1)).toBe(0);
  });

  it("scores one query on all four metrics", () => {
    const ranked = ["x1", "x2", "x3", "x4", "x5", "x6", "a", "x8", "x9", "x10", "b"];
    expect(scoreQuery(ranked, ["a", "b"])).toEqual({
      recall5: 0,
      recall10: 0.5,
      mrr10: 1 / 7,
      ndcg10: 1 / Math.log2(8) / (1 + 1 / Math.log2(3)),
    });
  });

  it("averages overall and per category", () => {
    const s = (r: number) => ({ recall5: r, recall10: r, mrr10: r, ndcg10: r });
    const { overall, byCategory } = summarizeByCategory([
      { category: "2", scores: s(1) },
      { category: "1", scores: s(0) },
      { category: "2", scores: s(0.5) },
    ]);
    expect(overall).toEqual({ queries: 3, recall5: 0.5, recall10: 0.5, mrr10: 0.5, ndcg10: 0.5 });
    expect(Object.keys(byCategory)).toEqual(["1", "2"]);
    expect(byCategory["2"]).toEqual({ queries: 2, recall5: 0.75, recall10: 0.75, mrr10: 0.75, ndcg10: 0.75 });
  });

  it("takes nearest-rank percentiles", () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 95)).toBe(10);
    expect(percentile([42], 95)).toBe(42);
    expect(percentile([], 50)).toBe(0);
  });
});
