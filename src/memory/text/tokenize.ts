/**
 * @module memory/text/tokenize
 * Text normalisation and tokenisation shared by FTS5 indexing (BM25), query building, duplicate
 * detection and the local hash embedder. Pure: no adapter imports, no I/O.
 *
 * Every token is letters/digits only, so the FTS table's `unicode61` tokenizer keeps it as exactly
 * one token when the tokens are stored space-joined.
 */
import { stemmer } from "stemmer";
import { cjkTokens } from "./cjk";
import { ENGLISH_STOP_WORDS } from "./stop-words";

/** A maximal run of either CJK characters or other letters/digits, already normalised. */
export interface Segment {
  kind: "word" | "cjk";
  text: string;
}

// Scripts written without spaces: tokenised as character bigrams. U+30FC (ー) is script "Common"
// but only ever appears inside katakana words.
const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC`;
// A letter or digit that is not CJK, spelled with a one-character lookahead rather than the `v` flag's
// set difference so the ReDoS checker (test/node/redos.test.ts) can read it.
const SEGMENT = new RegExp(String.raw`([${CJK}]+)|((?:(?![${CJK}])[\p{L}\p{N}])+)`, "gu");
// Apostrophes inside a word are dropped rather than split on: "don't" -> "dont", "user's" -> "users".
const INNER_APOSTROPHE = /(?<=[\p{L}\p{N}])['\u2019\u02BC](?=[\p{L}\p{N}])/gu;
// Combining marks are separators for unicode61 with remove_diacritics 0; NFKC has already composed
// the common accented letters, so what is left is dropped to keep each word one FTS token.
const MARKS = /\p{M}/gu;
const PORTER_WORD = /^[a-z]+$/;

/** NFKC, lower case, in-word apostrophes and leftover combining marks removed. */
function normalize(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(INNER_APOSTROPHE, "").replace(MARKS, "");
}

/** Splits text into word and CJK segments, in order; punctuation and spaces are dropped. */
export function segment(text: string): Segment[] {
  const out: Segment[] = [];
  for (const m of normalize(text).matchAll(SEGMENT)) {
    out.push(m[1] !== undefined ? { kind: "cjk", text: m[1] } : { kind: "word", text: m[2] });
  }
  return out;
}

/**
 * The index/query form of one normalised word: null for a stop word, the Porter stem for plain
 * English words ("running", "runs" -> "run"), the word itself otherwise (numbers, accented or
 * non-Latin words, which an English stemmer would mangle).
 */
export function wordToken(word: string): string | null {
  if (ENGLISH_STOP_WORDS.has(word)) return null;
  return PORTER_WORD.test(word) ? stem(word) : word;
}

/**
 * Porter stems, remembered: a bulk import stems the same few thousand words over and over (it was
 * the largest single cost of tokenising, embedding and neighbour context). Bounded: cleared when
 * full, so a stream of distinct words costs what it did before and never grows the heap.
 */
export const STEM_CACHE_MAX = 20_000;
const stems = new Map<string, string>();

/** Words whose stem is remembered now (never more than STEM_CACHE_MAX; test/unit/tokenize.test.ts). */
export const stemCacheSize = (): number => stems.size;

function stem(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    if (stems.size >= STEM_CACHE_MAX) stems.clear();
    s = stemmer(word);
    stems.set(word, s);
  }
  return s;
}

function tokens(text: string): string[] {
  const out: string[] = [];
  for (const seg of segment(text)) {
    if (seg.kind === "cjk") {
      out.push(...cjkTokens(seg.text));
      continue;
    }
    const token = wordToken(seg.text);
    if (token) out.push(token);
  }
  return out;
}

/** Tokens of a document, in order, with repeats (BM25 needs term frequency). */
export function indexTokens(text: string): string[] {
  return tokens(text);
}

/**
 * Distinct tokens of a query, stop words (question words included) removed: the same tokens as a
 * document's, each once. Every CJK content character is a unigram next to the bigrams, so a query
 * shares characters with a paraphrase (早餐 / 早上, 改成 / 改吃) and with words a bigram breaks (猫 in
 * 猫叫). Measured on bench/zh-conv-dev.json (216 questions) against unigrams only for characters no
 * bigram covers: R@10 0.815 → 0.894, MRR@10 0.625 → 0.666 (docs/benchmarks.md).
 */
export function queryTokens(text: string): string[] {
  return [...new Set(tokens(text))];
}

/** FTS5 MATCH string: each token a quoted string, OR-ed; "" when there is nothing to match. */
export function ftsMatchExpression(tokenList: string[]): string {
  return tokenList
    .filter((t) => t.length > 0)
    .map((t) => `"${t.replaceAll('"', '""')}"`)
    .join(" OR ");
}

// Punctuation to strip for exact-duplicate hashing. # % @ stay: "C#" vs "C", "50%" vs "50" and
// "@alice" vs "alice" are different facts, and a false "duplicate" would merge them silently.
// The backtick (a symbol, not punctuation) goes: markdown `code` quoting is formatting.
const HASH_PUNCTUATION = /[^\P{P}#%@]|`/gu;
const SPACE_NEXT_TO_CJK = new RegExp(String.raw`(?<=[${CJK}]) | (?=[${CJK}])`, "gu");

/** Canonical text for exact-duplicate detection: "I love sushi!" and "i love sushi" are equal. */
export function normalizeForHash(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(HASH_PUNCTUATION, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(SPACE_NEXT_TO_CJK, "");
}

/** Jaccard overlap of the two texts' index-token sets, 0..1 (0 when either has no tokens). */
export function lexicalOverlap(a: string, b: string): number {
  const setA = new Set(indexTokens(a));
  const setB = new Set(indexTokens(b));
  if (setA.size === 0 || setB.size === 0) return 0;
  let shared = 0;
  for (const t of setA) if (setB.has(t)) shared++;
  return shared / (setA.size + setB.size - shared);
}
