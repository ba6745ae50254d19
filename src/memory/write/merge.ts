/**
 * @module memory/write/merge
 * Patches for the two ways a save changes an existing memory. A merge folds a repeat into the one
 * already stored: refresh its time, union tags, keep the higher priority (lower number) and
 * confidence, and remember where the repeat came from. A supersede marks an older memory replaced.
 */

import { dedupeTags, initialImportance } from "../memory-factory";
import type { MemoryPatch } from "../ports";
import type { Memory } from "../types";

export type MergeIncoming = Pick<Memory, "tags" | "priority" | "confidence" | "source" | "eventTime" | "derivedFrom">;

/** derived_from entry naming a source (not a memory id), so forget_memories by source reaches merges. */
export function sourceRef(source: string): string {
  return `source:${source}`;
}

/**
 * derived_from entry naming the message a fact was extracted from: `source:<ref>#turn=<n>`, n the
 * 1-based message number of the conversation as summarize_conversation parsed it.
 */
export function turnRef(source: string, turn: number): string {
  return `${sourceRef(source)}#turn=${turn}`;
}

/** Provenance after a merge: both sides' derivations, plus the repeat's source when it differs. */
function mergedProvenance(existing: Memory, incoming: MergeIncoming): string[] {
  const fromSource = incoming.source && incoming.source !== existing.source ? [sourceRef(incoming.source)] : [];
  return dedupeTags([...existing.derivedFrom, ...incoming.derivedFrom, ...fromSource]);
}

function pick(m: Memory, keys: (keyof Memory)[]): Partial<Memory> {
  return Object.fromEntries(keys.map((k) => [k, m[k]]));
}

export function mergePatch(
  existing: Memory,
  incoming: MergeIncoming,
  actor: string,
  now: number,
  reason: string,
): MemoryPatch {
  const priority = Math.min(existing.priority, incoming.priority);
  const changes: Partial<Memory> = {
    updatedAt: now,
    tags: dedupeTags([...existing.tags, ...incoming.tags]),
    priority,
    confidence: Math.max(existing.confidence, incoming.confidence),
    // Saying it again shows it still matters: undo any decay down to the priority's starting value.
    importance: Math.max(existing.importance, initialImportance(priority)),
    eventTime: Math.max(existing.eventTime ?? 0, incoming.eventTime ?? 0) || null,
    derivedFrom: mergedProvenance(existing, incoming),
  };
  const before = pick(existing, Object.keys(changes) as (keyof Memory)[]);
  const after = { ...changes, source: incoming.source, reason } as Partial<Memory>;
  return { id: existing.id, changes, event: { op: "merge", before, after, actor, at: now } };
}

export function supersedePatch(
  older: Memory,
  newerId: string,
  reason: string,
  actor: string,
  now: number,
): MemoryPatch {
  const changes: Partial<Memory> = { status: "superseded", supersededBy: newerId, updatedAt: now, indexedAt: null };
  return {
    id: older.id,
    changes,
    event: {
      op: "supersede",
      before: { status: older.status, supersededBy: older.supersededBy, content: older.content },
      after: { status: "superseded", supersededBy: newerId, reason } as Partial<Memory>,
      actor,
      at: now,
    },
  };
}
