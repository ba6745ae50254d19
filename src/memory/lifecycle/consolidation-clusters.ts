/**
 * @module memory/lifecycle/consolidation-clusters
 * The pure half of consolidation: which pairs count as near-duplicates, how pairs join into
 * clusters, which fragment of a cluster survives, and the patches that fold the rest into it.
 * No I/O — unit-tested directly (test/unit/lifecycle-consolidation.test.ts).
 */
import { dedupeTags, initialImportance } from "../memory-factory";
import type { MemoryPatch } from "../ports";
import { indexTokens, lexicalOverlap } from "../text/tokenize";
import type { Memory } from "../types";

/** Same as the write path's near-duplicate test: both signals high means the same statement. */
export const STRICT_COSINE = 0.9;
export const STRICT_OVERLAP = 0.6;
/** Looser similarity that earns a pair a question to the Llm port (rules offline, a model online). */
export const ASK_COSINE = 0.5;
export const ASK_OVERLAP = 0.5;

export interface Pair {
  seed: Memory;
  other: Memory;
  cosine: number;
}

/** Same agent and category: consolidation never moves a memory across either boundary. */
export function sameGroup(a: Memory, b: Memory): boolean {
  return a.id !== b.id && a.agentId === b.agentId && a.category === b.category;
}

export function isStrictDuplicate(p: Pair): boolean {
  if (p.seed.contentHash === p.other.contentHash) return true;
  return p.cosine >= STRICT_COSINE && lexicalOverlap(p.seed.content, p.other.content) >= STRICT_OVERLAP;
}

export function worthAsking(p: Pair): boolean {
  return p.cosine >= ASK_COSINE || lexicalOverlap(p.seed.content, p.other.content) >= ASK_OVERLAP;
}

/** Connected components of the duplicate graph (union-find), each with ≥ 2 members. */
export function clusterEdges(edges: [string, string][]): string[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let cur = x; cur !== root; ) {
      const next = parent.get(cur)!;
      parent.set(cur, root);
      cur = next;
    }
    return root;
  };
  for (const [a, b] of edges) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const groups = new Map<string, string[]>();
  for (const id of parent.keys()) groups.set(find(id), [...(groups.get(find(id)) ?? []), id]);
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort());
}

/** Distinct searchable tokens: the measure of how much a fragment says. */
export function completeness(m: Memory): number {
  return new Set(indexTokens(m.content)).size;
}

/** The most complete fragment wins; among equally complete ones the most recent, then the highest id. */
export function pickWinner(members: Memory[]): Memory {
  return [...members].sort(
    (a, b) =>
      completeness(b) - completeness(a) || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  )[0];
}

function maxOrNull(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length > 0 ? Math.max(...present) : null;
}

/** The winner absorbs the others' tags, best priority and confidence, usage and provenance. */
export function absorbPatch(winner: Memory, others: Memory[], actor: string, now: number): MemoryPatch {
  const all = [winner, ...others];
  const priority = Math.min(...all.map((m) => m.priority));
  const changes: Partial<Memory> = {
    updatedAt: now,
    tags: dedupeTags(all.flatMap((m) => m.tags)),
    priority,
    confidence: Math.max(...all.map((m) => m.confidence)),
    // Said several times shows it matters: keep the highest importance, at least the priority's start value.
    importance: Math.max(initialImportance(priority), ...all.map((m) => m.importance)),
    eventTime: maxOrNull(all.map((m) => m.eventTime)),
    // No expiry wins over an expiry: one fragment without an end date keeps the fact alive.
    expiresAt: all.some((m) => m.expiresAt === null) ? null : maxOrNull(all.map((m) => m.expiresAt)),
    accessCount: all.reduce((n, m) => n + m.accessCount, 0),
    lastAccessedAt: maxOrNull(all.map((m) => m.lastAccessedAt)),
    derivedFrom: dedupeTags([...winner.derivedFrom, ...others.flatMap((m) => [m.id, ...m.derivedFrom])]),
  };
  const before = Object.fromEntries(Object.keys(changes).map((k) => [k, winner[k as keyof Memory]])) as Partial<Memory>;
  const after = { ...changes, reason: `consolidated ${others.length} near-duplicate fragment(s)` } as Partial<Memory>;
  return { id: winner.id, changes, event: { op: "merge", before, after, actor, at: now } };
}

/** A fragment folded into the winner: superseded, linked to it, out of the index. */
export function foldPatch(fragment: Memory, winnerId: string, actor: string, now: number): MemoryPatch {
  const changes: Partial<Memory> = { status: "superseded", supersededBy: winnerId, updatedAt: now, indexedAt: null };
  return {
    id: fragment.id,
    changes,
    event: {
      op: "supersede",
      before: { status: fragment.status, supersededBy: fragment.supersededBy },
      after: {
        status: "superseded",
        supersededBy: winnerId,
        reason: "consolidated: near-duplicate fragment",
      } as Partial<Memory>,
      actor,
      at: now,
    },
  };
}
