/**
 * The recall ceiling of bench:ceiling: its ranked-file contract, the signals it adds to a run, the
 * R@10 of a weighted sum, the fit that re-weights them, and the word vectors it may read.
 */
import { describe, expect, it } from "vitest";
import { bm25Scorer } from "../../scripts/lib/bench-bm25";
import { evaluate, fitWeights, recallAt10 } from "../../scripts/lib/ceiling-fit";
import { parseRanked, rankedLines } from "../../scripts/lib/ceiling-ranked";
import {
  type CeilingQuestion,
  LEXICAL_SIGNALS,
  rankScore,
  userQuestions,
  zScore,
} from "../../scripts/lib/ceiling-signals";
import { readWordVectors, sentenceVector, surfaceWords } from "../../scripts/lib/word-vectors";

const memory = (externalId: string, content: string, source = "s1") => ({
  externalId,
  content,
  eventTime: null,
  source,
});

/** 20 memories, one signal each question: the planted one ranks evidence last unless re-weighted. */
function question(category: string, evidence: number[]): CeilingQuestion {
  const size = 20;
  const recall = Float64Array.from({ length: size }, (_, i) => (i < 10 ? 1 - i / 20 : 0));
  const planted = Float64Array.from({ length: size }, (_, i) => (evidence.includes(i) ? 5 : 0));
  return {
    category,
    evidence: Uint8Array.from({ length: size }, (_, i) => (evidence.includes(i) ? 1 : 0)),
    signals: [recall, planted],
  };
}

describe("ranked file", () => {
  it("round-trips what recall returned, a line per question", () => {
    const text = rankedLines("conv-1", [
      { question: "Q?", category: "1", evidence: ["D1:1"], ranked: ["D1:2", "D1:1"] },
    ]);
    expect(parseRanked(text)).toEqual([
      { sample: "conv-1", question: "Q?", category: "1", evidence: ["D1:1"], ranked: ["D1:2", "D1:1"] },
    ]);
  });

  it("names the line and the field that is wrong", () => {
    const good = rankedLines("a", [{ question: "Q", category: "1", evidence: [], ranked: [] }]);
    expect(() => parseRanked(`${good}{"sample":"a","question":"Q","category":"1","evidence":[]}\n`)).toThrow(
      /line 2: ranked: Invalid input/,
    );
    expect(() => parseRanked("not json")).toThrow(/line 1: not JSON/);
  });
});

describe("signals", () => {
  it("scores recall's first 10 by rank and nothing below", () => {
    const order = new Map(Array.from({ length: 12 }, (_, i) => [`m${i}`, i]));
    const s = rankScore(
      Array.from({ length: 12 }, (_, i) => `m${11 - i}`),
      order,
      12,
    );
    expect(s[11]).toBe(1);
    expect(s[2]).toBeCloseTo(1 / (1 + 9 / 3));
    expect(s[1]).toBe(0);
    expect(s[0]).toBe(0);
  });

  it("z-scores to mean 0 and sd 1, and a flat signal to zeros", () => {
    const z = zScore(Float64Array.from([1, 2, 3, 4]));
    expect(z.reduce((a, b) => a + b, 0)).toBeCloseTo(0);
    expect(Math.sqrt(z.reduce((a, b) => a + b * b, 0) / 4)).toBeCloseTo(1);
    expect([...zScore(Float64Array.from([2, 2]))]).toEqual([0, 0]);
  });

  it("gives BM25 to the memory holding the rarer word", () => {
    const scores = bm25Scorer([["pottery", "class"], ["class"], ["hike"]]).score(["pottery", "class"]);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(scores[2]).toBe(0);
  });

  it("marks the memories of the speaker a question names, and feeds back recall's first hits", () => {
    const memories = [
      memory("1", "Caroline: I went to a yoga class", "s1"),
      memory("2", "Melanie: I love pottery and clay", "s2"),
      memory("3", "Caroline: The clay bowl came out well", "s3"),
    ];
    const [q] = userQuestions(
      memories,
      [{ sample: "u", question: "What did Caroline make?", category: "1", evidence: ["3"], ranked: ["2"] }],
      null,
    );
    expect(q.signals).toHaveLength(LEXICAL_SIGNALS.length);
    expect([...q.signals[LEXICAL_SIGNALS.indexOf("speaker")]]).toEqual([1, 0, 1]);
    const feedback = q.signals[LEXICAL_SIGNALS.indexOf("feedback")];
    // "clay" from recall's first hit lifts memory 3, which shares no word with the question.
    expect(feedback[2]).toBeGreaterThan(feedback[0]);
    expect([...q.evidence]).toEqual([0, 0, 1]);
  });
});

describe("fit", () => {
  it("counts the share of evidence among the 10 best", () => {
    expect(recallAt10([1, 0], question("1", [15, 16]))).toBe(0);
    expect(recallAt10([1, 1], question("1", [15, 16]))).toBe(1);
    expect(recallAt10([1, 0], question("1", [3, 15]))).toBe(0.5);
  });

  it("finds weights that put planted evidence first, and reports by category", () => {
    const questions = [question("1", [12, 14]), question("2", [18]), question("2", [2])];
    expect(evaluate([1, 0], questions).overall).toBeCloseTo(1 / 3);
    const best = fitWeights(questions, 2, { objective: "overall", seed: 1, restarts: 2, steps: 40 });
    expect(best.score.overall).toBe(1);
    expect(best.weights[0]).toBe(1);
    expect(best.score.byCategory).toEqual({ "1": 1, "2": 1 });
  });

  it("keeps recall's ranking when no step helps", () => {
    const questions = [question("1", [0, 1])];
    expect(fitWeights(questions, 2, { objective: { category: "1" }, seed: 3, restarts: 1, steps: 10 }).weights).toEqual(
      [1, 0],
    );
  });
});

describe("word vectors", () => {
  const file = {
    dimensions: 2,
    words: ["book", "novel", "hike"],
    vectors: { book: [1, 0, 1], novel: [0.9, 0.1, 0.9], hike: [0, 1, 1] },
  };

  it("keeps only the words asked for and makes unit sentence vectors", () => {
    const v = readWordVectors(file, new Set(["book", "hike", "absent"]));
    expect([...v.keys()].sort()).toEqual(["book", "hike"]);
    const s = sentenceVector(["book", "hike", "absent"], v, () => 1);
    expect(Math.hypot(...s)).toBeCloseTo(1);
    expect(sentenceVector(["absent"], v, () => 1)).toHaveLength(0);
  });

  it("names the field of a malformed file", () => {
    expect(() => readWordVectors({ words: [], vectors: {} }, new Set())).toThrow(/dimensions/);
    expect(() => readWordVectors({ ...file, vectors: { book: [1] } }, new Set(["book"]))).toThrow(/vectors\.book/);
  });

  it("spells words as the vectors do, without stop words", () => {
    expect(surfaceWords("I've read THE Hobbit twice")).toEqual(["read", "hobbit", "twice"]);
  });
});
