/**
 * @module scripts/lib/bench-bm25
 * The baseline every recall figure is compared with: plain Okapi BM25 (k1 1.2, b 0.75) over each
 * user's memories, computed here in the benchmark, independent of the product's tokenizer so that
 * improving the product cannot move its yardstick. Tokens: lower-cased words with English stop words
 * removed, Porter-stemmed, and every run of CJK characters as overlapping character bigrams (a
 * one-character run as itself) — the textbook baseline for Chinese, with no stop list and no
 * dictionary. Pure.
 */
import { stemmer } from "stemmer";
import { ENGLISH_STOP_WORDS } from "../../src/memory/text/stop-words.ts";
import type { BenchMemory } from "./bench-data.ts";

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}`;
const RUN = new RegExp(String.raw`([${CJK}]+)|([[\p{L}\p{N}]--[${CJK}]]+)`, "gv");

/** Baseline tokens of a text, in order, with repeats. */
export function baselineTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize("NFKC").toLowerCase().replaceAll("'", "").matchAll(RUN)) {
    if (m[2] !== undefined) {
      if (!ENGLISH_STOP_WORDS.has(m[2])) out.push(/^[a-z]+$/.test(m[2]) ? stemmer(m[2]) : m[2]);
      continue;
    }
    const chars = Array.from(m[1]);
    if (chars.length === 1) out.push(chars[0]);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  }
  return out;
}

export interface Bm25Index {
  search(query: string, k: number): string[];
}

/** BM25 over token lists: idf of a term, and every document's score for a query's terms (0 for no match). */
export function bm25Scorer(docs: string[][], k1 = 1.2, b = 0.75) {
  const tfs = docs.map((tokens) => {
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return tf;
  });
  const df = new Map<string, number>();
  for (const tf of tfs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(docs.length, 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log((docs.length - n + 0.5) / (n + 0.5) + 1);
  };
  const score = (terms: Iterable<string>): Float64Array => {
    const out = new Float64Array(docs.length);
    for (const t of new Set(terms)) {
      const w = idf(t);
      tfs.forEach((tf, i) => {
        const f = tf.get(t) ?? 0;
        if (f > 0) out[i] += (w * f * (k1 + 1)) / (f + k1 * (1 - b + (b * docs[i].length) / (avg || 1)));
      });
    }
    return out;
  };
  return { idf, score };
}

/** An in-memory BM25 index over one user's memories; `search` returns external ids, best first. */
export function bm25Index(memories: BenchMemory[], k1 = 1.2, b = 0.75): Bm25Index {
  const scorer = bm25Scorer(
    memories.map((m) => baselineTokens(m.content)),
    k1,
    b,
  );
  return {
    search(query, k) {
      const scores = scorer.score(baselineTokens(query));
      return memories
        .map((m, order) => ({ id: m.externalId, score: scores[order], order }))
        .filter((s) => s.score > 0)
        .sort((x, y) => y.score - x.score || x.order - y.order)
        .slice(0, k)
        .map((s) => s.id);
    },
  };
}
