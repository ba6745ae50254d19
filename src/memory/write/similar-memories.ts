/**
 * @module memory/write/similar-memories
 * Finds the active memories most similar to a new text — the candidates for duplicate and
 * contradiction checks. Dense hits (index + fresh buffer) carry their cosine; lexical hits widen
 * the net for short texts whose vectors are weak. Rows are validated against D1 before use.
 * Without a vector (the embedding model is unavailable) the candidates are the BM25 hits alone, in
 * BM25 order, with a null cosine: the near-duplicate test then judges by tokens (near-duplicate.ts).
 * A text that speaks of an area of life a life changes (text/life-topics.ts: home, work, partner, a
 * habit…) also brings the latest statements of that area, whatever their words ("I rent a place in
 * Lyon" for "I've moved to Dublin"; 「我每天坐地铁上班」 for 「现在改骑电动车了」): the conflict rules
 * need them to see the change, and neither a hash vector nor BM25 finds them. One more D1 statement,
 * only for such a text, read beside the others.
 */

import type { MemoryDeps } from "../service-deps";
import { type LifeTopic, statesTopic, topicSearchTokens, topicsStated } from "../text/life-topics";
import { queryTokens } from "../text/tokenize";
import type { Memory, Scope } from "../types";

export interface SimilarMemory {
  memory: Memory;
  /** Cosine to the new text's vector (0 for a lexical-only hit); null when the new text has no vector. */
  cosine: number | null;
}

const DENSE_K = 10;
const LEXICAL_K = 10;
const MAX_CANDIDATES = 8;
/** Statements of the text's areas of life searched, and how many of them join the candidates past the others. */
const AREA_K = 10;
const AREA_EXTRA = 4;

export function visibleTo(memory: Memory, agentId: string | null | undefined): boolean {
  return memory.agentId === null || agentId === undefined || memory.agentId === agentId;
}

export async function findSimilar(
  deps: MemoryDeps,
  scope: Scope,
  text: string,
  vector: Float32Array | null,
): Promise<SimilarMemory[]> {
  const now = deps.clock.now();
  const cosineOf = new Map<string, number>();
  // Dense rows and lexical hits (with their rows) are read side by side: one D1 round trip.
  const areas = topicsStated(text);
  const [denseRows, lexical, areaRows] = await Promise.all([
    vector ? denseRowsFor(deps, scope, vector, now, cosineOf) : [],
    deps.repo.searchTextRows(scope, queryTokens(text), LEXICAL_K),
    areaStatements(deps, scope, areas, text),
  ]);
  const byId = new Map<string, Memory>();
  for (const m of [...denseRows, ...lexical.rows]) byId.set(m.id, m);
  const rank = new Map(lexical.hits.map((h, i) => [h.id, i]));
  const visible = [...byId.values()].filter((m) => m.status === "active" && visibleTo(m, scope.agentId ?? null));
  const ranked = vector
    ? visible.map((memory) => ({ memory, cosine: cosineOf.get(memory.id) ?? 0 })).sort((a, b) => b.cosine - a.cosine)
    : visible
        .map((memory) => ({ memory, cosine: null }))
        .sort((a, b) => (rank.get(a.memory.id) ?? LEXICAL_K) - (rank.get(b.memory.id) ?? LEXICAL_K));
  const kept = ranked.slice(0, MAX_CANDIDATES);
  const keptIds = new Set(kept.map((c) => c.memory.id));
  const area = areaRows
    .filter((m) => !keptIds.has(m.id) && m.status === "active" && visibleTo(m, scope.agentId ?? null))
    .filter((m) => areas.some((t) => statesTopic(m.content, t)))
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, AREA_EXTRA)
    .map((memory) => ({ memory, cosine: vector ? (cosineOf.get(memory.id) ?? 0) : null }));
  return [...kept, ...area];
}

/** The rows BM25 finds for the words of these areas; none without an area, or when the search fails. */
async function areaStatements(deps: MemoryDeps, scope: Scope, areas: LifeTopic[], text: string): Promise<Memory[]> {
  if (areas.length === 0) return [];
  const found = await deps.repo.searchTextRows(scope, topicSearchTokens(areas, text), AREA_K).catch(() => null);
  if (found === null) return [];
  const hit = new Set(found.hits.map((h) => h.id));
  return found.rows.filter((m) => hit.has(m.id));
}

/** Rows of the dense candidates (index + fresh buffer), validated in D1; fills `cosineOf`. */
async function denseRowsFor(
  deps: MemoryDeps,
  scope: Scope,
  vector: Float32Array,
  now: number,
  cosineOf: Map<string, number>,
): Promise<Memory[]> {
  const dense = await deps.index.query(scope, vector, DENSE_K).catch(() => []);
  for (const hit of [...dense, ...deps.fresh.score(vector, DENSE_K, now)]) {
    cosineOf.set(hit.id, Math.max(cosineOf.get(hit.id) ?? -1, hit.score));
  }
  return cosineOf.size > 0 ? deps.repo.getMany(scope, [...cosineOf.keys()]) : [];
}
