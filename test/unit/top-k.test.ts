import { describe, expect, it } from "vitest";
import { topK } from "../../src/memory/top-k";

/** The k best by a full stable sort: higher score first, equal scores in index order. */
function bySort(scores: number[], k: number): { index: number; score: number }[] {
  return scores
    .map((score, index) => ({ index, score }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(k, 0));
}

describe("topK against a full sort", () => {
  it("selects the same k, in the same order, ties included", () => {
    let s = 11;
    const rand = () => {
      s = (s * 1664525 + 1013904223) >>> 0;
      return s / 2 ** 32;
    };
    for (const n of [0, 1, 5, 50, 1000]) {
      // Few distinct values, so many scores tie with the k-th.
      const scores = Array.from({ length: n }, () => Math.floor(rand() * 20) / 20 - 0.3);
      for (const k of [0, 1, 3, 10, 50, 2000])
        expect(topK(Float32Array.from(scores), k)).toEqual(bySort([...Float32Array.from(scores)], k));
    }
  });

  it("keeps the lowest scores while fewer than k were seen", () => {
    expect(topK([-Infinity, -1, -Infinity], 3).map((x) => x.index)).toEqual([1, 0, 2]);
  });
});
