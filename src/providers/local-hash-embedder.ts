/**
 * @module providers/local-hash-embedder
 * Offline Embedder: signed feature hashing of the same tokens the FTS index uses, plus character
 * trigrams. No model, no network, deterministic, fast; it captures lexical (not semantic)
 * similarity, which is what `npm run dev` and self-hosters without Workers AI get.
 */
import type { Embedder } from "../memory/ports";
import { cjkTokens } from "../memory/text/cjk";
import { segment, wordToken } from "../memory/text/tokenize";
import { l2normalize } from "../memory/vector-math";

/**
 * Feature weights. Stems and CJK bigrams carry the meaning. Trigrams catch spelling variants the
 * stemmer misses ("colour"/"color"); a word yields several, so each is light. CJK unigrams keep
 * texts sharing single characters (茶 in 绿茶/红茶) close: on a small zh recall set, unigram
 * weight 0.6 gave MRR 0.87 against 0.80 at 0.35 and 0.69 without unigrams.
 */
const WEIGHT = { word: 1, trigram: 0.25, bigram: 1, unigram: 0.6 } as const;
type Feature = keyof typeof WEIGHT;

// Trigrams only for letter words: digit strings ("2023"/"2024") sharing "202" are not related.
const LETTERS_ONLY = /^\p{L}+$/u;

/** Dimensions of the feature-hashing embedder unless EMBEDDING_DIMENSIONS says otherwise. */
export const LOCAL_HASH_DIMENSIONS = 384;

/** One hashed feature: its key (kind-prefixed, so equal keys are equal features), slot and signed weight. */
interface Hashed {
  key: string;
  index: number;
  weight: number;
}

/**
 * Words seen before, with their hashed features (stem and trigrams): a bulk import meets the same
 * words thousands of times, and hashing them anew was most of the embedder's time. Two generations
 * of at most WORD_CACHE_MAX words each: when the recent one is full it becomes the older one and
 * the words not met again since are dropped, so frequent words stay. (Clearing everything when
 * full dropped the frequent words too; re-hashing them threw ~100 MB of long-lived garbage into
 * V8's old generation over a 100k import, and V8 grew the heap to 150 MB to hold it.)
 */
export const WORD_CACHE_MAX = 10_000;

/**
 * Hashed features by key, shared by every word that has them (a trigram such as "ing" belongs to
 * thousands of words): a cached word then costs an array of references, not its own objects.
 * Cleared when full; words cached before hold their own references, so nothing changes value.
 */
export const FEATURE_CACHE_MAX = 50_000;

export class LocalHashEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  private recentWords = new Map<string, Hashed[]>();
  private olderWords = new Map<string, Hashed[]>();
  private readonly features = new Map<string, Hashed>();

  constructor(options: { dimensions?: number; model?: string } = {}) {
    const dimensions = options.dimensions ?? LOCAL_HASH_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 1) {
      throw new RangeError(`LocalHashEmbedder: dimensions must be a positive integer, got ${dimensions}`);
    }
    this.dimensions = dimensions;
    this.model = options.model ?? "local-hash-v1";
  }

  /** Words whose features are remembered now (never more than 2 × WORD_CACHE_MAX). */
  get cachedWords(): number {
    return this.recentWords.size + this.olderWords.size;
  }

  /** Distinct features held for sharing (never more than FEATURE_CACHE_MAX). */
  get cachedFeatures(): number {
    return this.features.size;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** One text's vector: sum of signed, sublinearly weighted feature hashes, L2-normalised. */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    for (const { feature, count } of this.countFeatures(text).values())
      vector[feature.index] += feature.weight * (1 + Math.log(count));
    return l2normalize(vector);
  }

  /** Feature key -> the feature and how often the text has it. */
  private countFeatures(text: string): Map<string, { feature: Hashed; count: number }> {
    const counts = new Map<string, { feature: Hashed; count: number }>();
    const add = (feature: Hashed) => {
      const entry = counts.get(feature.key);
      if (entry) entry.count++;
      else counts.set(feature.key, { feature, count: 1 });
    };
    for (const seg of segment(text)) {
      if (seg.kind === "cjk") {
        for (const t of cjkTokens(seg.text))
          add(this.hashed(t.length === 1 || isOneCodePoint(t) ? "unigram" : "bigram", t));
        continue;
      }
      for (const f of this.wordFeatures(seg.text)) add(f);
    }
    return counts;
  }

  /** A word's features: its index token (none for a stop word) and, for letter words, its trigrams. */
  private wordFeatures(word: string): Hashed[] {
    const recent = this.recentWords.get(word);
    if (recent) return recent;
    const features = this.olderWords.get(word) ?? this.hashWord(word);
    if (this.recentWords.size >= WORD_CACHE_MAX) {
      this.olderWords = this.recentWords;
      this.recentWords = new Map();
    }
    this.recentWords.set(word, features);
    return features;
  }

  private hashWord(word: string): Hashed[] {
    const token = wordToken(word);
    const features: Hashed[] = [];
    if (token) {
      features.push(this.hashed("word", token));
      if (LETTERS_ONLY.test(word)) for (const g of trigrams(word)) features.push(this.hashed("trigram", g));
    }
    return features;
  }

  private hashed(feature: Feature, value: string): Hashed {
    // The key is prefixed by kind so "run" the word and "run" the trigram hash apart.
    const key = `${feature[0]}\u0000${value}`;
    const known = this.features.get(key);
    if (known) return known;
    const h = fmix32(fnv1a(key));
    const hashed = { key, index: (h >>> 1) % this.dimensions, weight: (h & 1 ? 1 : -1) * WEIGHT[feature] };
    if (this.features.size >= FEATURE_CACHE_MAX) this.features.clear();
    this.features.set(key, hashed);
    return hashed;
  }
}

/** Character trigrams of `<word>`, so prefixes and suffixes are features of their own. */
function trigrams(word: string): string[] {
  const chars = Array.from(`<${word}>`);
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars[i] + chars[i + 1] + chars[i + 2]);
  return out;
}

function isOneCodePoint(s: string): boolean {
  return s.length === 2 && s.codePointAt(0)! > 0xffff;
}

/** FNV-1a over UTF-16 code units: tiny and fast; fmix32 below fixes its weak low-bit avalanche. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's 32-bit finaliser: every output bit depends on every input bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
