/**
 * @module memory/recall/progressive-injection
 * Shapes recall by how far into a session the agent is: call 1 brings at most three core memories
 * (who the user is, how to talk with them), call 2 the single best match plus a count of the rest,
 * call 3+ a normal search. Session counters live in the user's Durable Object; this module is pure.
 */
import type { Memory } from "../types";

export type Stage = 1 | 2 | 3;

export interface SessionCounter {
  calls: number;
  lastAt: number;
}

export const CORE_LIMIT = 3;

/** Counts a call; a session idle for at least `resetMs` starts again at call 1. */
export function advanceSession(
  previous: SessionCounter | undefined,
  now: number,
  resetMs: number,
): { stage: Stage; counter: SessionCounter } {
  const fresh = !previous || now - previous.lastAt >= resetMs;
  const calls = fresh ? 1 : Math.min(previous.calls + 1, 3);
  return { stage: calls as Stage, counter: { calls, lastAt: now } };
}

export function isCoreMemory(m: Memory): boolean {
  return m.priority <= 2 || m.category === "personal";
}

/** Stage 1: relevant core memories first (most relevant first), then the most important other core memories. */
export function pickCore<T extends { memory: Memory }>(relevant: T[], fallback: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const c of [
    ...relevant.filter((r) => isCoreMemory(r.memory)),
    ...fallback.filter((f) => isCoreMemory(f.memory)),
  ]) {
    if (out.length >= CORE_LIMIT) break;
    if (seen.has(c.memory.id)) continue;
    seen.add(c.memory.id);
    out.push(c);
  }
  return out;
}

export interface Shaped<T> {
  results: T[];
  /** Relevant memories (above the relevance floor) the answer leaves out. */
  moreAvailable: number;
}

/**
 * What one stage returns. `relevant` is the ranked search (best first), `totalRelevant` how many
 * passed the relevance floor in all, `core` the user's core memories by importance (stage 1 only).
 */
export function shapeStage<T extends { memory: Memory }>(
  stage: Stage,
  relevant: T[],
  totalRelevant: number,
  core: T[],
  maxResults: number,
): Shaped<T> {
  const results = stage === 1 ? pickCore(relevant, core) : relevant.slice(0, stage === 2 ? 1 : maxResults);
  const relevantIds = new Set(relevant.map((r) => r.memory.id));
  const shownRelevant = results.filter((r) => relevantIds.has(r.memory.id)).length;
  return { results, moreAvailable: Math.max(0, totalRelevant - shownRelevant) };
}
