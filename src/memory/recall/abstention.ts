/**
 * @module memory/recall/abstention
 * The decision to answer "nothing remembered": a query is answered only when some relevant
 * candidate covers enough of what the query asks, measured against the query's own best possible
 * evidence rather than against a fixed score. Each query token is weighted by how rare it is among
 * the owner's memories (an idf estimated from the BM25 pool; a token no memory holds weighs as
 * much as the rarest); a candidate's coverage is the weight of the query tokens its own text holds
 * over the weight of them all. "What did Caroline say about the LGBTQ support group?" asked of a
 * user whose memories never name Caroline or LGBTQ covers little even when "support group"
 * matches well. Pure; recall-memories.ts applies it after fusion, so every transport and every
 * stage of a session sees the same decision.
 */
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import { readIdioms } from "../text/idioms";
import { stripFraming } from "../text/query-framing";
import { indexTokens, queryTokens, segment } from "../text/tokenize";
import type { Memory } from "../types";
import type { Evidence } from "./fuse-scores";
import { maxIdf } from "./fuse-scores";

export interface AbstentionInput {
  /** The query's distinct search tokens. */
  tokens: string[];
  /** The BM25 pool's rows: the sample that estimates how rare each token is. */
  pool: Pick<Memory, "content">[];
  /** Rows in the full-text index (BM25's N). */
  corpusSize: number;
  /** The candidates that cleared the relevance floors, with their evidence. */
  candidates: { memory: Pick<Memory, "content">; evidence: Evidence | undefined }[];
  /** The cosine at which a candidate is about the query whatever its words (per embedder). */
  cosineFloor: number;
  /** The least coverage that answers. */
  threshold: number;
}

/**
 * Words of dates and periods. A query that names a time window ("in July 2023", 「上个月」) is matched
 * on it by the memory's event time (the time boost), not by its words, so they are left out of the
 * coverage; a query that names none keeps them (a number can be what it asks about).
 */
const TIME_WORDS = new Set(
  queryTokens(
    "january february march april june july august september october november december " +
      "monday tuesday wednesday thursday friday saturday sunday week weekend month year day days " +
      "beginning end early late last next 去年 今年 明年 上个月 下个月 这个月 上周 这周 下周 昨天 前天 今天 明天 周末 星期 月份 年 月 日 号 天",
  ),
);
const isDigits = (t: string) => [...t].every((ch) => ch >= "0" && ch <= "9");

/**
 * Words of asking, not of what is asked about: how much, how long, which one, lately, before, "do you
 * remember" where the framing patterns (text/query-framing.ts) leave them. Every question carries them,
 * so a memory holding one (「最近加班多」 for 「我最近在玩什么游戏」) covers a share of any question it
 * was never about. Left out of the coverage only; ranking keeps its own tokens. Measured with
 * `npm run bench:recall` on the three Chinese sets (docs/benchmarks.md, "Cross-user check").
 */
const ASKING_WORDS_ZH = [
  "还记得",
  "记得",
  "回忆",
  "说过",
  "讲过",
  "提过",
  "提到",
  "聊天",
  "之前",
  "以前",
  "时候",
  "当时",
  "曾经",
  "好像",
  "最近",
  "来着",
  "帮我",
  "查一下",
  "忘了",
  "跟你",
  "和你",
  "告诉你",
  "多久",
  "多少",
  "多长",
  "多远",
  "多大",
  "几次",
  "几个",
  "几年",
  "几天",
  "哪家",
  "哪座",
  "哪位",
  "哪种",
  "哪天",
  "哪一",
  "那次",
  "那天",
];

/**
 * The query tokens coverage weighs: those of the query without its framing, its words of asking
 * (ASKING_WORDS_ZH), idioms read as what they mean (text/idioms.ts), and the words of its dates when it names a time
 * window. When nothing else is left, the query's own tokens.
 */
export function askedTokens(query: string, namesTimeWindow: boolean): string[] {
  let text = readIdioms(stripFraming(query));
  for (const w of ASKING_WORDS_ZH) text = text.replaceAll(w, " ");
  const tokens = queryTokens(text);
  return coverageTokens(tokens.length > 0 ? tokens : queryTokens(stripFraming(query)), namesTimeWindow);
}

/**
 * Characters that carry grammar more than meaning (到, 对, 会, 子 of 孩子 and 牌子): alone, one held by a
 * memory is no evidence it is about the question (「我的护照什么时候到期」 is not about 「我搬到厦门了」,
 * 「我开什么牌子的车」 not about 「我有两个孩子」). Measured with `npm run bench:recall` on the three
 * Chinese sets and `npm run bench:person` (dev): R@10 and MRR unchanged on all three; cross-user
 * zh-conv-dev 30.9% → 30.1%, zh-conv-test 30.0% → 28.0%; bench:person dev Chinese abstention 0.455 →
 * 0.591. 有 and 开 stay: without 有 zh-dev lost a question (「王芳有哪些饮食禁忌」), without 开 「我开什么车」
 * lost 「我开的是一辆白色的比亚迪」 (开 is "drive").
 */
const FUNCTION_CHARS = new Set("到对会过子个".split(""));

/**
 * The tokens coverage weighs for a Chinese question: without its grammar characters (FUNCTION_CHARS)
 * read alone; the words they are part of still count. All of them when nothing else is left.
 */
export function withoutGrammarChars(tokens: string[]): string[] {
  const kept = tokens.filter((t) => !FUNCTION_CHARS.has(t));
  return kept.length > 0 ? kept : tokens;
}

/** The query tokens coverage weighs: without the words of its dates when it names a time window. */
export function coverageTokens(tokens: string[], namesTimeWindow: boolean): string[] {
  return namesTimeWindow ? tokens.filter((t) => !TIME_WORDS.has(t) && !isDigits(t)) : tokens;
}

/** The query is written mostly in a script without spaces (its CJK characters outnumber its other letters). */
export function mostlyCjk(text: string): boolean {
  let cjk = 0;
  let other = 0;
  for (const s of segment(text)) {
    if (s.kind === "cjk") cjk += s.text.length;
    else other += s.text.length;
  }
  return cjk > other;
}

/** Each query token's weight: its idf estimated from how many pool rows hold it. */
export function tokenWeights(tokens: string[], pool: Set<string>[], corpusSize: number): Map<string, number> {
  const ceiling = maxIdf(corpusSize);
  const n = Math.max(corpusSize, pool.length, 2);
  const weights = new Map<string, number>();
  for (const t of tokens) {
    const df = pool.reduce((c, row) => c + (row.has(t) ? 1 : 0), 0);
    weights.set(t, Math.min(ceiling, Math.max(W.abstain.minWeight, Math.log((n + 0.5) / (df + 0.5)))));
  }
  return weights;
}

/** Share of the query's token weight that `held` covers (0 when the query has no tokens). */
export function coverage(weights: Map<string, number>, held: Set<string>): number {
  let all = 0;
  let covered = 0;
  for (const [t, w] of weights) {
    all += w;
    if (held.has(t)) covered += w;
  }
  return all > 0 ? covered / all : 0;
}

/** The best coverage among the candidates (0 with none). */
export function bestCoverage(input: Omit<AbstentionInput, "cosineFloor" | "threshold">): number {
  if (input.candidates.length === 0 || input.tokens.length === 0) return 0;
  const sets = new Map<string, Set<string>>();
  const tokensOf = (content: string) => {
    let s = sets.get(content);
    if (!s) sets.set(content, (s = new Set(indexTokens(readIdioms(content)))));
    return s;
  };
  const weights = tokenWeights(
    input.tokens,
    input.pool.map((m) => tokensOf(m.content)),
    input.corpusSize,
  );
  return Math.max(...input.candidates.map((c) => coverage(weights, tokensOf(c.memory.content))));
}

/**
 * True when recall should answer "nothing remembered": no candidate covers `threshold` of the
 * query's weight and none is close in meaning (cosine at or above `cosineFloor`). Candidates found
 * by the dense channel alone while BM25 found nothing keep the dense floor's verdict.
 */
export function shouldAbstain(input: AbstentionInput): boolean {
  if (input.candidates.length === 0) return true;
  if (input.candidates.some((c) => (c.evidence?.cosine ?? 0) >= input.cosineFloor)) return false;
  // No memory holds any query word: coverage has nothing to weigh, and the dense floor alone
  // admitted these candidates (a spelling variant the stemmer misses), so they stand.
  if (input.pool.length === 0) return false;
  if (input.tokens.length === 0) return true;
  return bestCoverage(input) < input.threshold;
}
