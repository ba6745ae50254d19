/**
 * @module memory/recall/progressive-injection
 * Shapes recall by how far into a session the agent is: call 1 brings at most three core memories
 * (who the user is), call 2 the single best match plus a count of the rest, call 3+ a normal
 * search. Session counters live in the user's Durable Object; this module is pure.
 */
import type { Memory } from "../types";

export type Stage = 1 | 2 | 3;

export interface SessionCounter {
  calls: number;
  lastAt: number;
}

export const CORE_LIMIT = 3;

export function advanceSession(previous: SessionCounter | undefined, now: number, resetMs: number): { stage: Stage; counter: SessionCounter } {
  const fresh = !previous || now - previous.lastAt > resetMs;
  const calls = fresh ? 1 : previous.calls + 1;
  return { stage: Math.min(calls, 3) as Stage, counter: { calls, lastAt: now } };
}

export function isCoreMemory(m: Memory): boolean {
  return m.priority <= 2 || m.category === "personal";
}

/** Stage 1: relevant core memories first, then the most important other core memories. */
export function pickCore<T extends { memory: Memory }>(relevant: T[], fallback: T[]): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const c of [...relevant.filter((r) => isCoreMemory(r.memory)), ...fallback]) {
    if (out.length >= CORE_LIMIT) break;
    if (seen.has(c.memory.id)) continue;
    seen.add(c.memory.id);
    out.push(c);
  }
  return out;
}
