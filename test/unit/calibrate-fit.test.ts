import { describe, expect, it } from "vitest";
import { fitDenseFloor, fitNearDuplicateBar, floorPairs } from "../../scripts/lib/calibrate-fit";

describe("fitDenseFloor", () => {
  it("sets the floor just above the unrelated pairs' 95th percentile and reports the relevant share above it", () => {
    const unrelated = Array.from({ length: 100 }, (_, i) => 0.2 + i * 0.002); // 0.200 … 0.398
    const relevant = [0.35, 0.41, 0.5, 0.6, 0.7];
    const fit = fitDenseFloor(relevant, unrelated);
    expect(fit.floor).toBe(0.39); // p95 = 0.388 → next 0.01 above it
    expect(fit.unrelatedPassing).toBeLessThanOrEqual(0.05);
    expect(fit.relevantPassing).toBe(0.8);
    expect(fit.medians.unrelated).toBeCloseTo(0.298, 6);
  });

  it("steps above a tie at the quantile instead of letting it through", () => {
    const fit = fitDenseFloor(
      [0.9],
      Array.from({ length: 20 }, () => 0.3),
    );
    expect(fit.floor).toBe(0.31);
    expect(fit.unrelatedPassing).toBe(0);
  });

  it("refuses an empty side", () => {
    expect(() => fitDenseFloor([], [0.1])).toThrow(/needs relevant and unrelated/);
  });
});

describe("fitNearDuplicateBar", () => {
  const pair = (cosine: number, duplicate: boolean, guardsPass = true) => ({ cosine, duplicate, guardsPass });

  it("takes the bar that merges the most restatements net of false merges, the highest of equals", () => {
    const fit = fitNearDuplicateBar(
      [
        pair(0.95, true),
        pair(0.86, true),
        pair(0.8, true),
        pair(0.99, true, false), // the guards refuse it: the Llm decides
        pair(0.97, false, false), // a negation: refused by the cues
        pair(0.843, false), // a role swap the guards let through
      ],
      0.5,
    );
    // 0.80: 3 merged − 1 false = 2; 0.85 and 0.86: 2 − 0 = 2 → the highest of those.
    expect(fit).toMatchObject({ bar: 0.86, falseMerges: 0, duplicatesGuarded: 1, hardestNonDuplicate: 0.843 });
    expect(fit.duplicatesMerged).toBe(0.5);
  });

  it("keeps a bar a hard non-duplicate clears when that still merges more restatements", () => {
    const fit = fitNearDuplicateBar([pair(0.9, true), pair(0.85, true), pair(0.82, true), pair(0.95, false)], 0.3);
    expect(fit).toMatchObject({ bar: 0.82, falseMerges: 1 });
    expect(fit.duplicatesMerged).toBe(1);
  });

  it("never goes below the relevance floor", () => {
    const fit = fitNearDuplicateBar([pair(0.4, true), pair(0.9, false, false)], 0.6);
    expect(fit).toMatchObject({ bar: 1, duplicatesMerged: 0, hardestNonDuplicate: null });
    expect(fitNearDuplicateBar([pair(0.7, true), pair(0.9, false, false)], 0.6).bar).toBe(0.7);
  });
});

describe("floorPairs", () => {
  const sample = (id: string, n: number) => ({
    id,
    memories: Array.from({ length: n }, (_, i) => ({
      externalId: `${id}-${i}`,
      content: `${id} memory ${i}`,
      eventTime: null,
      source: "t",
    })),
    questions: [
      { question: `${id} q0`, evidence: [`${id}-1`, `${id}-2`], category: "1" },
      { question: `${id} q1`, evidence: ["missing"], category: "1" },
      { question: `${id} q2`, evidence: [`${id}-3`], category: "1" },
    ],
  });

  it("pairs each question with its own evidence and with another sample's memories only", () => {
    const ds = { format: "generic" as const, samples: [sample("a", 10), sample("b", 10)], skippedQuestions: 0 };
    const { relevant, unrelated } = floorPairs(ds, 100);
    expect(relevant).toEqual([
      { a: "a q0", b: "a memory 1" },
      { a: "a q0", b: "a memory 2" },
      { a: "b q0", b: "b memory 1" },
      { a: "b q0", b: "b memory 2" },
      { a: "a q2", b: "a memory 3" },
      { a: "b q2", b: "b memory 3" },
    ]);
    expect(unrelated).toHaveLength(8); // two per question with evidence
    for (const p of unrelated) expect(p.b.startsWith(p.a[0])).toBe(false);
  });

  it("stops at the question budget and refuses a single sample", () => {
    const ds = { format: "generic" as const, samples: [sample("a", 10), sample("b", 10)], skippedQuestions: 0 };
    expect(floorPairs(ds, 1).relevant).toHaveLength(2);
    expect(() => floorPairs({ ...ds, samples: [sample("a", 5)] }, 10)).toThrow(/two samples/);
  });
});
