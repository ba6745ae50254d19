/**
 * @module scripts/lib/ceiling-signals
 * The signals the recall ceiling (bench-ceiling.ts) may re-weight, for every memory of a user and
 * every question asked of it: recall's own ranking (from a `bench:recall --ranked` run), BM25 over the
 * memory and over its neighbour context (bench-bm25.ts, independent of the product's tokenizer),
 * pseudo-relevance feedback from recall's first five, the named speaker, the memory's length, and —
 * when word vectors are given (word-vectors.ts) — meaning: the question's vector against the memory's,
 * its neighbours', and the centroid of recall's first five. Each signal but recall's and the
 * speaker's is z-scored over the user's memories per question, so one weight means the same
 * everywhere. Pure.
 */
import { RETRIEVAL_WEIGHTS } from "../../src/memory/retrieval-weights.ts";
import { baselineTokens, bm25Scorer } from "./bench-bm25.ts";
import type { BenchMemory } from "./bench-data.ts";
import { memoryWords, speakerLabel, speakerTokens } from "./bench-reach.ts";
import type { RankedLine } from "./ceiling-ranked.ts";
import { cosine, sentenceVector, surfaceWords, type WordVectors } from "./word-vectors.ts";

export const LEXICAL_SIGNALS = ["recall", "bm25", "bm25 + neighbours", "feedback", "speaker", "length"] as const;
export const MEANING_SIGNALS = ["vectors", "vectors + neighbours", "centroid"] as const;
export type SignalName = (typeof LEXICAL_SIGNALS)[number] | (typeof MEANING_SIGNALS)[number];

/** Recall's first `FEEDBACK_DOCS` lend their `FEEDBACK_TERMS` rarest new words to the feedback query. */
const FEEDBACK_DOCS = 5;
const FEEDBACK_TERMS = 20;

export interface CeilingQuestion {
  category: string;
  /** 1 where the memory (in the user's order) is evidence. */
  evidence: Uint8Array;
  /** One score per memory for each signal, in `names` order. */
  signals: Float64Array[];
}

/** Recall's rank as a score: 1 for the first, falling by rank, 0 outside the first 10. */
export function rankScore(ranked: string[], order: Map<string, number>, size: number): Float64Array {
  const out = new Float64Array(size);
  ranked.slice(0, 10).forEach((id, r) => {
    const i = order.get(id);
    if (i !== undefined) out[i] = 1 / (1 + r / 3);
  });
  return out;
}

/** (x − mean) / sd over the user's memories; all zeros when every memory scores the same. */
export function zScore(x: Float64Array): Float64Array {
  const mean = x.reduce((a, b) => a + b, 0) / Math.max(1, x.length);
  const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, x.length));
  return sd > 0 ? x.map((v) => (v - mean) / sd) : new Float64Array(x.length);
}

/** BM25 of `terms` over own text plus neighbour context at recall's context weight. */
const withNeighbours = (own: Float64Array, neighbours: Float64Array) =>
  own.map((v, i) => v + RETRIEVAL_WEIGHTS.context.weight * neighbours[i]);

/** Everything about one user that does not depend on the question. */
function userIndex(memories: BenchMemory[], vectors: WordVectors | null) {
  const names = speakerTokens(memories);
  const radius = RETRIEVAL_WEIGHTS.context.radius;
  const words = memoryWords(memories, names, radius);
  const own = memories.map((m) => words.get(m.externalId)?.own ?? []);
  const ownIndex = bm25Scorer(own);
  const neighbourIndex = bm25Scorer(memories.map((m) => words.get(m.externalId)?.neighbours ?? []));
  const speakers = memories.map((m) => new Set(baselineTokens(speakerLabel(m.content) ?? "")));
  const length = memories.map((_, i) => Math.log1p(own[i].length));
  return {
    names,
    own,
    ownIndex,
    neighbourIndex,
    speakers,
    length,
    meaning: vectors && meaningIndex(memories, vectors),
  };
}

function meaningIndex(memories: BenchMemory[], vectors: WordVectors) {
  const names = new Set(memories.flatMap((m) => surfaceWords(speakerLabel(m.content) ?? "")));
  const words = memoryWords(memories, names, RETRIEVAL_WEIGHTS.context.radius, surfaceWords);
  const own = memories.map((m) => words.get(m.externalId)?.own ?? []);
  const idf = bm25Scorer(own).idf;
  const vector = (w: string[]) => sentenceVector(w, vectors, idf);
  return {
    names,
    idf,
    own: own.map(vector),
    withNeighbours: memories.map((m, i) => vector([...own[i], ...(words.get(m.externalId)?.neighbours ?? [])])),
    vector,
  };
}

/** The feedback query: the rarest words of recall's first hits that the question does not hold. */
function feedbackTerms(top: number[], own: string[][], question: Set<string>, idf: (t: string) => number): string[] {
  const weight = new Map<string, number>();
  for (const i of top)
    for (const t of new Set(own[i])) if (!question.has(t)) weight.set(t, (weight.get(t) ?? 0) + idf(t));
  return [...weight.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, FEEDBACK_TERMS)
    .map(([t]) => t);
}

function meaningSignals(
  meaning: NonNullable<ReturnType<typeof userIndex>["meaning"]>,
  question: string,
  top: number[],
): Float64Array[] {
  const q = meaning.vector(surfaceWords(question).filter((w) => !meaning.names.has(w)));
  const centroid = new Float64Array(q.length);
  for (const i of top) meaning.own[i].forEach((v, d) => (centroid[d] += v));
  const norm = Math.hypot(...centroid);
  const c = norm > 0 ? centroid.map((v) => v / norm) : new Float64Array(0);
  return [
    zScore(Float64Array.from(meaning.own, (v) => cosine(q, v))),
    zScore(Float64Array.from(meaning.withNeighbours, (v) => cosine(q, v))),
    zScore(Float64Array.from(meaning.own, (v) => cosine(c, v))),
  ];
}

/** Every question asked of one user, with its signals; `vectors` null leaves the meaning signals out. */
export function userQuestions(
  memories: BenchMemory[],
  lines: RankedLine[],
  vectors: WordVectors | null,
): CeilingQuestion[] {
  const ix = userIndex(memories, vectors);
  const order = new Map(memories.map((m, i) => [m.externalId, i]));
  return lines.map((line) => {
    const tokens = baselineTokens(line.question);
    const question = new Set(tokens.filter((t) => !ix.names.has(t)));
    const top = line.ranked.slice(0, FEEDBACK_DOCS).flatMap((id) => order.get(id) ?? []);
    const feedback = feedbackTerms(top, ix.own, question, ix.ownIndex.idf);
    const own = ix.ownIndex.score(question);
    const signals = [
      rankScore(line.ranked, order, memories.length),
      zScore(own),
      zScore(withNeighbours(own, ix.neighbourIndex.score(question))),
      zScore(withNeighbours(ix.ownIndex.score(feedback), ix.neighbourIndex.score(feedback))),
      Float64Array.from(ix.speakers, (s) => (tokens.some((t) => s.has(t)) ? 1 : 0)),
      zScore(Float64Array.from(ix.length)),
      ...(ix.meaning ? meaningSignals(ix.meaning, line.question, top) : []),
    ];
    const evidence = new Set(line.evidence);
    return {
      category: line.category,
      evidence: Uint8Array.from(memories, (m) => (evidence.has(m.externalId) ? 1 : 0)),
      signals,
    };
  });
}
