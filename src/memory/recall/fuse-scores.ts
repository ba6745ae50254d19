/**
 * @module memory/recall/fuse-scores
 * Weighted fusion of dense and lexical evidence with the relevance floor and the priority,
 * importance and recency boosts. Weights live in memory/retrieval-weights.ts.
 */
import { RETRIEVAL_WEIGHTS as W } from "../retrieval-weights";
import type { Memory } from "../types";

export interface Evidence {
  cosine: number;
  bm25: number;
}

export interface FusedCandidate {
  memory: Memory;
  score: number;
}

/** Fuses evidence for hydrated memories; drops those below the relevance floor. */
export function fuseScores(rows: Memory[], evidence: Map<string, Evidence>, denseFloor: number, now: number): FusedCandidate[] {
  let maxBm25 = 0;
  for (const e of evidence.values()) maxBm25 = Math.max(maxBm25, e.bm25);
  const out: FusedCandidate[] = [];
  for (const memory of rows) {
    const e = evidence.get(memory.id);
    if (!e) continue;
    const lexical = maxBm25 > 0 ? e.bm25 / maxBm25 : 0;
    if (lexical === 0 && e.cosine < denseFloor) continue;
    const fused = W.dense * Math.max(0, e.cosine) + W.lexical * lexical;
    const ageDays = Math.max(0, now - (memory.eventTime ?? memory.createdAt)) / 86_400_000;
    const score = fused * W.priorityBoost(memory.priority) * W.importanceBoost(memory.importance) * W.recencyBoost(ageDays);
    if (score >= W.fusedFloor) out.push({ memory, score });
  }
  return out.sort((a, b) => b.score - a.score);
}
