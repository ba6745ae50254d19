/**
 * @module memory/write/similar-memories
 * Finds the active memories most similar to a new text — the candidates for duplicate and
 * contradiction checks. Dense hits (index + fresh buffer) carry their cosine; lexical hits widen
 * the net for short texts whose vectors are weak. Rows are validated against D1 before use.
 */

import type { MemoryDeps } from "../service-deps";
import { queryTokens } from "../text/tokenize";
import type { Memory, Scope } from "../types";

export interface SimilarMemory {
  memory: Memory;
  cosine: number;
}

const DENSE_K = 10;
const LEXICAL_K = 10;
const MAX_CANDIDATES = 8;

export function visibleTo(memory: Memory, agentId: string | null | undefined): boolean {
  return memory.agentId === null || agentId === undefined || memory.agentId === agentId;
}

export async function findSimilar(
  deps: MemoryDeps,
  scope: Scope,
  text: string,
  vector: Float32Array,
): Promise<SimilarMemory[]> {
  const now = deps.clock.now();
  const [dense, lexical] = await Promise.all([
    deps.index.query(scope, vector, DENSE_K).catch(() => []),
    deps.repo.searchText(scope, queryTokens(text), LEXICAL_K),
  ]);
  const cosineOf = new Map<string, number>();
  for (const hit of [...dense, ...deps.fresh.score(vector, DENSE_K, now)]) {
    cosineOf.set(hit.id, Math.max(cosineOf.get(hit.id) ?? -1, hit.score));
  }
  const ids = [...new Set([...cosineOf.keys(), ...lexical.map((h) => h.id)])];
  const rows = await deps.repo.getMany(scope, ids);
  return rows
    .filter((m) => m.status === "active" && visibleTo(m, scope.agentId ?? null))
    .map((memory) => ({ memory, cosine: cosineOf.get(memory.id) ?? 0 }))
    .sort((a, b) => b.cosine - a.cosine)
    .slice(0, MAX_CANDIDATES);
}
