/**
 * @module scripts/lib/bench-synthetic
 * Deterministic synthetic memories for the scale benchmark: conversation turns ("Name: words…")
 * over a Zipf-distributed vocabulary of made-up content words, 20 turns per conversation, dated two days
 * apart, and queries built from words of one known memory so recall can be checked at any size.
 * Pure and seeded: the same N always yields the same data.
 */
import type { BenchMemory, BenchQuestion } from "./bench-data.ts";

/** mulberry32: a small, fast, seedable PRNG (uniform in [0, 1)). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ba",
  "ko",
  "ri",
  "mu",
  "te",
  "sa",
  "lo",
  "ni",
  "pe",
  "du",
  "ga",
  "vi",
  "zo",
  "fe",
  "hu",
  "ja",
  "wy",
  "qua",
  "xe",
  "cy",
  "dro",
  "plin",
  "shu",
  "tor",
];
const SPEAKERS = ["Avery", "Bruno", "Chiara", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonah"];
const VOCABULARY_SIZE = 30_000;
const TURNS_PER_CONVERSATION = 20;
const FUNCTION_WORD_RANKS = 100;

interface Vocabulary {
  words: string[];
  /** Cumulative Zipf weights (exponent 1.07, content-word ranks), for sampling by binary search. */
  cumulative: Float64Array;
}

function vocabulary(random: () => number): Vocabulary {
  const seen = new Set<string>();
  while (seen.size < VOCABULARY_SIZE) {
    const parts = 2 + Math.floor(random() * 3);
    let word = "";
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    seen.add(word);
  }
  const words = [...seen];
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  // Zipf from rank 101 on: the hundred most frequent words of real text are function words the
  // tokenizer drops ("the", "and", "了"), so content words start below them.
  for (let r = 0; r < words.length; r++) cumulative[r] = sum += 1 / (r + 1 + FUNCTION_WORD_RANKS) ** 1.07;
  return { words, cumulative };
}

/** Index of a word drawn by frequency (low index = common). */
function drawRank(v: Vocabulary, random: () => number): number {
  const target = random() * v.cumulative[v.cumulative.length - 1];
  let lo = 0,
    hi = v.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v.cumulative[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface SyntheticSet {
  memories: BenchMemory[];
  /** Ranks of each memory's words, for building queries. */
  ranks: number[][];
  words: string[];
}

export function syntheticMemories(n: number, seed = 42): SyntheticSet {
  const random = prng(seed);
  const v = vocabulary(random);
  const memories: BenchMemory[] = [];
  const ranks: number[][] = [];
  const start = Date.UTC(2021, 0, 1, 18);
  for (let i = 0; i < n; i++) {
    const conversation = Math.floor(i / TURNS_PER_CONVERSATION);
    const length = 8 + Math.floor(random() * 17);
    const r = Array.from({ length }, () => drawRank(v, random));
    // Two people per conversation, taking turns.
    const speaker = SPEAKERS[(conversation + (i % 2) * 3) % SPEAKERS.length];
    ranks.push(r);
    memories.push({
      externalId: `syn-${i}`,
      content: `${speaker}: ${r.map((k) => v.words[k]).join(" ")}.`,
      eventTime: new Date(start + conversation * 2 * 86_400_000).toISOString(),
      source: `synthetic/c${conversation}`,
    });
  }
  return { memories, ranks, words: v.words };
}

export interface PhraseQuery {
  query: string;
  memory: number;
}

/** Two adjacent words of one memory, starting at its rarest word: a phrase both systems can find. */
export function phraseQueries(set: SyntheticSet, count: number, seed = 11): PhraseQuery[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const i = Math.floor(random() * set.memories.length);
    const ranks = set.ranks[i];
    const at = ranks.indexOf(Math.max(...ranks));
    const pair = at + 1 < ranks.length ? [at, at + 1] : [at - 1, at];
    return { query: pair.map((k) => set.words[ranks[k]]).join(" "), memory: i };
  });
}

/** Queries of three words from one memory (its two rarest and one at random); that memory is the answer. */
export function syntheticQueries(set: SyntheticSet, count: number, seed = 7): BenchQuestion[] {
  const random = prng(seed);
  const out: BenchQuestion[] = [];
  for (let q = 0; q < count; q++) {
    const i = Math.floor(random() * set.memories.length);
    const byRarity = [...new Set(set.ranks[i])].sort((a, b) => b - a);
    const picked = [byRarity[0], byRarity[1] ?? byRarity[0], set.ranks[i][Math.floor(random() * set.ranks[i].length)]];
    out.push({
      question: `what about ${[...new Set(picked)].map((k) => set.words[k]).join(" ")}?`,
      evidence: [set.memories[i].externalId],
      category: "synthetic",
    });
  }
  return out;
}
