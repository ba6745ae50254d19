/**
 * @module memory/recall/entity-channel
 * Recall's entity channel: a query that names an entity or a relation ("my sister", 「我表哥」,
 * "Ana") brings the memories naming that entity into the candidates (one indexed lookup beside
 * BM25), and a bounded second hop from the best hits adds memories that share an entity with them,
 * for questions whose answer is split over two memories ("What does my sister do?": "my sister
 * Ana…" and "Ana works as…"). Entity evidence weighs in fusion (fuse-scores.ts); it never decides
 * abstention (recall-memories.ts decides on words and meaning first), so a foreign question that
 * happens to name a relation the user also has stays unanswered.
 */
import { queryEntityKeys } from "../entities/query-keys";
import type { EntityHit } from "../ports";
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import type { Evidence } from "./fuse-scores";

export const entityRecallOn = (deps: MemoryDeps): boolean => deps.settings.entityRecall === true;

/** Memories naming an entity the query names; none when the channel is off or the lookup fails. */
export async function namedCandidates(deps: MemoryDeps, owner: Owner, query: string): Promise<EntityHit[]> {
  if (!entityRecallOn(deps)) return [];
  const keys = queryEntityKeys(query);
  if (keys.length === 0) return [];
  return deps.entities.memoriesNaming(owner, keys, W.entity.direct).catch((err) => {
    deps.log.warn("entity lookup failed; recall goes on without it", {
      error: err instanceof Error ? err.name : "unknown",
    });
    return [];
  });
}

/** Adds entity evidence `weight` to each hit's memory (the strongest one a memory gets counts). */
export function addEntityEvidence(evidence: Map<string, Evidence>, hits: EntityHit[], weight: number): void {
  for (const h of hits) {
    const e = evidence.get(h.memoryId) ?? { cosine: 0, bm25: 0 };
    evidence.set(h.memoryId, { ...e, entity: Math.max(e.entity ?? 0, weight) });
  }
}

/** Memories sharing an entity with the best `seeds` (the second hop); none when off or on failure. */
export async function secondHop(deps: MemoryDeps, owner: Owner, seeds: string[]): Promise<EntityHit[]> {
  if (!entityRecallOn(deps) || seeds.length === 0) return [];
  return deps.entities.sharedEntityMemories(owner, seeds.slice(0, W.entity.hopFrom), W.entity.hop).catch((err) => {
    deps.log.warn("entity second hop failed; recall goes on without it", {
      error: err instanceof Error ? err.name : "unknown",
    });
    return [];
  });
}
