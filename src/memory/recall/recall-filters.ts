/**
 * @module memory/recall/recall-filters
 * Post-hydration checks every recalled row must pass: status, agent visibility, expiry and the
 * caller's filters. D1 is the authority — an index hit that fails here is dropped.
 */
import type { RecallInput } from "../contracts";
import type { Memory, MemoryType, Scope } from "../types";

export interface RecallFilter {
  includeSuperseded: boolean;
  agentId: string | null;
  category?: string;
  tags?: string[];
  memoryType?: MemoryType;
  since?: number;
  until?: number;
  now: number;
}

export function passesRecallFilter(m: Memory, f: RecallFilter): boolean {
  if (m.status !== "active" && !(f.includeSuperseded && m.status === "superseded")) return false;
  if (m.agentId !== null && m.agentId !== f.agentId) return false;
  if (m.expiresAt !== null && m.expiresAt <= f.now) return false;
  if (f.category && m.category !== f.category) return false;
  if (f.memoryType && m.memoryType !== f.memoryType) return false;
  if (f.tags && !f.tags.every((t) => m.tags.includes(t))) return false;
  const when = m.eventTime ?? m.createdAt;
  if (f.since !== undefined && when < f.since) return false;
  if (f.until !== undefined && when > f.until) return false;
  return true;
}

/** The filter a recall call implies: its arguments, the caller's agent (none = shared only) and the time. */
export function recallFilterFor(scope: Scope, input: Partial<RecallInput>, now: number): RecallFilter {
  return {
    includeSuperseded: input.include_superseded ?? false,
    agentId: scope.agentId ?? null,
    category: input.category,
    tags: input.tags,
    memoryType: input.memory_type,
    since: input.since ? Date.parse(input.since) : undefined,
    until: input.until ? Date.parse(input.until) : undefined,
    now,
  };
}
