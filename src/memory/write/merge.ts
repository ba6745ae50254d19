/**
 * @module memory/write/merge
 * Folding a repeated memory into the one already stored: refresh its time, union tags, keep the
 * higher priority (lower number) and confidence, remember where the repeat came from.
 */
import type { MemoryPatch } from "../ports";
import type { Memory } from "../types";
import { dedupeTags } from "../memory-factory";

export interface MergeIncoming {
  tags: string[];
  priority: number;
  confidence: number;
  source: string | null;
  eventTime: number | null;
  derivedFrom?: string[];
}

export function mergePatch(existing: Memory, incoming: MergeIncoming, actor: string, now: number): MemoryPatch {
  const changes: Partial<Memory> = {
    updatedAt: now,
    tags: dedupeTags([...existing.tags, ...incoming.tags]),
    priority: Math.min(existing.priority, incoming.priority),
    confidence: Math.max(existing.confidence, incoming.confidence),
    eventTime: Math.max(existing.eventTime ?? 0, incoming.eventTime ?? 0) || null,
    derivedFrom: dedupeTags([...existing.derivedFrom, ...(incoming.derivedFrom ?? [])]),
  };
  const before: Partial<Memory> = { tags: existing.tags, priority: existing.priority, confidence: existing.confidence, updatedAt: existing.updatedAt, eventTime: existing.eventTime };
  return { id: existing.id, changes, event: { op: "merge", before, after: { ...changes, source: incoming.source }, actor, at: now } };
}

export function supersedePatch(older: Memory, newerId: string, reason: string, actor: string, now: number): MemoryPatch {
  const changes: Partial<Memory> = { status: "superseded", supersededBy: newerId, updatedAt: now, indexedAt: null };
  return {
    id: older.id,
    changes,
    event: { op: "supersede", before: { status: older.status, content: older.content }, after: { status: "superseded", supersededBy: newerId, reason } as Partial<Memory>, actor, at: now },
  };
}
