/**
 * @module memory/recall/progressive-injection
 * Shapes recall by how far into a session the agent is. Call 1 answers the question and introduces
 * the user: the strong matches for the query (those within STRONG_SHARE of the best score, at most
 * FIRST_CALL_MATCHES) followed by a small profile of core memories (who the user is, how to talk
 * with them). Call 2 brings the strong matches (at most SECOND_CALL_MATCHES, so a second match as
 * good as the first is never hidden) plus a count of the rest; call 3+ a normal search. Every match
 * has already cleared the relevance floors. This module is pure; recall/session-recall.ts counts the
 * calls (SessionCounterStore) and applies it.
 */
import type { SessionCounter } from "../ports";
import { queryExcerpt } from "../text/excerpt";
import { stripFraming } from "../text/query-framing";
import { estimateTokens } from "../text/token-estimate";
import { queryTokens } from "../text/tokenize";
import type { Memory } from "../types";

export type Stage = 1 | 2 | 3;

/** Core memories of a first call that matched nothing; beside matches, PROFILE_BESIDE_MATCHES. */
export const CORE_LIMIT = 3;
export const PROFILE_BESIDE_MATCHES = 2;
/**
 * A match is strong when its score is at least this share of the best one. LoCoMo dev, first calls
 * (no core memories there): the top 4 within 0.8 of the best hold 0.653 of the evidence with 3.2
 * memories on average; the plain top 3 hold 0.634, the top 5 0.696 (docs/benchmarks.md).
 */
export const STRONG_SHARE = 0.8;
export const FIRST_CALL_MATCHES = 4;
export const SECOND_CALL_MATCHES = 3;
/**
 * What stage 1's memories may cost, in estimated tokens of their text (text/token-estimate.ts): the
 * first item is always shown, the next only while the sum stays within the budget. LoCoMo dev
 * (docs/benchmarks.md): unbounded 0.654 of the evidence in 189 tokens; 200 keeps 0.636 in 170;
 * 120 keeps 0.551 in 120.
 */
export const FIRST_CALL_TOKENS = 200;
/**
 * Longest excerpt stages 1 and 2 show of one memory, in estimated tokens; 0 shows every memory
 * whole (the default). LoCoMo dev (docs/benchmarks.md): 12-token excerpts bring the first call to
 * 66 tokens with the evidence kept, but the text then holds the answer for 0.08 of the questions
 * instead of 0.33, so whole memories stay the default.
 */
export const EXCERPT_TOKENS = 0;

/** Counts a call; a session idle for at least `resetMs` starts again at call 1. */
export function advanceSession(
  previous: SessionCounter | undefined,
  now: number,
  resetMs: number,
): { stage: Stage; counter: SessionCounter } {
  const fresh = !previous || now - previous.lastAt >= resetMs;
  const counter = { calls: fresh ? 1 : Math.min(previous.calls + 1, 3), lastAt: now };
  return { stage: stageOf(counter), counter };
}

/** The stage of a session whose counter reads `counter` (calls past the third are all stage 3). */
export function stageOf(counter: SessionCounter): Stage {
  return counter.calls <= 1 ? 1 : counter.calls === 2 ? 2 : 3;
}

/** What shaping reads of a memory: a search's hit or a tool's view of one both fit (scripts replay it). */
export type ShapedMemory = Pick<Memory, "id" | "content" | "priority" | "category">;

export function isCoreMemory(m: Pick<Memory, "priority" | "category">): boolean {
  return m.priority <= 2 || m.category === "personal";
}

/** The best match and those close to it (ranked best first, scored): at most `max`. */
export function strongMatches<T extends { score: number }>(ranked: T[], max: number): T[] {
  const best = ranked[0]?.score ?? 0;
  return ranked.slice(0, max).filter((r) => r.score >= STRONG_SHARE * best);
}

/** The text a stage shows of an item: its content, or an excerpt of it (shownText). */
export type ShownText<T> = (item: T) => string;
const wholeContent = <T extends { memory: ShapedMemory }>(item: T) => item.memory.content;

/** The text of a memory as stages 1–2 show it: whole, or the excerpt the query is about (memoised per call). */
export function shownText(
  query: string,
  excerptTokens: number,
): ((c: { memory: Pick<Memory, "id" | "content"> }) => string) | undefined {
  if (excerptTokens <= 0) return undefined;
  const tokens = queryTokens(stripFraming(query));
  const seen = new Map<string, string>();
  return ({ memory }) => {
    let text = seen.get(memory.id);
    if (text === undefined) seen.set(memory.id, (text = queryExcerpt(memory.content, tokens, excerptTokens)));
    return text;
  };
}

/** Items from the front of `items` while their shown text fits `budget` tokens; the first always. */
export function withinBudget<T extends { memory: ShapedMemory }>(
  items: T[],
  budget: number,
  shown: ShownText<T> = wholeContent,
): T[] {
  const kept: T[] = [];
  let spent = 0;
  for (const item of items) {
    spent += estimateTokens(shown(item));
    if (kept.length > 0 && spent > budget) break;
    kept.push(item);
  }
  return kept;
}

/**
 * Stage 1: the strong matches, then the most important core memories not already among them, all
 * within `budget` tokens (matches first: the question before the profile).
 */
export function pickFirstCall<T extends { memory: ShapedMemory; score: number }>(
  relevant: T[],
  core: T[],
  budget = FIRST_CALL_TOKENS,
  textOf: ShownText<T> = wholeContent,
): T[] {
  const matches = strongMatches(relevant, FIRST_CALL_MATCHES);
  const shown = new Set(matches.map((m) => m.memory.id));
  const profile = core
    .filter((c) => isCoreMemory(c.memory) && !shown.has(c.memory.id))
    .slice(0, matches.length > 0 ? PROFILE_BESIDE_MATCHES : CORE_LIMIT);
  return withinBudget([...matches, ...profile], budget, textOf);
}

export interface Shaped<T> {
  results: T[];
  /** How many of `results` are matches for the query (the rest is the stage-1 profile). */
  matches: number;
  /** Relevant memories (above the relevance floor) the answer leaves out. */
  moreAvailable: number;
}

/**
 * What one stage returns. `relevant` is the ranked search (best first), `totalRelevant` how many
 * passed the relevance floor in all, `core` the user's core memories by importance (stage 1 only).
 */
export function shapeStage<T extends { memory: ShapedMemory; score: number }>(
  stage: Stage,
  relevant: T[],
  totalRelevant: number,
  core: T[],
  maxResults: number,
  firstCallTokens = FIRST_CALL_TOKENS,
  shown: ShownText<T> = wholeContent,
): Shaped<T> {
  const results =
    stage === 1
      ? pickFirstCall(relevant, core, firstCallTokens, shown)
      : stage === 2
        ? strongMatches(relevant, SECOND_CALL_MATCHES)
        : relevant.slice(0, maxResults);
  const relevantIds = new Set(relevant.map((r) => r.memory.id));
  const shownRelevant = results.filter((r) => relevantIds.has(r.memory.id)).length;
  // Stage 1 lists the matches first; the budget keeps a prefix, so the matches shown are its head.
  const matches =
    stage === 1 ? Math.min(strongMatches(relevant, FIRST_CALL_MATCHES).length, results.length) : results.length;
  return { results, matches, moreAvailable: Math.max(0, totalRelevant - shownRelevant) };
}
