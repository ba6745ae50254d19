/**
 * @module memory/retrieval-weights
 * Every recall weight and threshold in one documented place (docs/architecture.md#recall quotes it).
 * Scores are built as: fused = dense·w.dense + lexical·w.lexical, then multiplied by the boosts.
 */
export const RETRIEVAL_WEIGHTS = {
  /** Candidates pulled from each retriever before fusion. */
  denseCandidates: 50,
  lexicalCandidates: 50,
  /** Weight of cosine similarity (0..1) and of BM25 normalised by the best BM25 hit (0..1). */
  dense: 0.5,
  lexical: 0.5,
  /**
   * Relevance floor on cosine for candidates with no lexical match. Hash embeddings of unrelated
   * texts score ~0–0.15; bge-m3 scores unrelated text ~0.3–0.45, hence per-embedder floors.
   */
  denseFloor: { local: 0.3, "workers-ai": 0.55 } as Record<string, number>,
  /** Final fused score below which a candidate is noise. */
  fusedFloor: 0.12,
  /** Priority 1 → ×1.2 … priority 5 → ×0.9. */
  priorityBoost: (priority: number) => 1 + 0.05 * (3 - priority) + (priority === 1 ? 0.05 : 0),
  /** importance 0..1 → ×0.9..1.1 */
  importanceBoost: (importance: number) => 0.9 + 0.2 * importance,
  /** Slow recency decay: half the boost is lost after a year; never below ×0.9. */
  recencyBoost: (ageDays: number) => 0.9 + 0.1 * Math.pow(0.5, ageDays / 365),
  /** How many fused candidates the reranker (when configured) sees, and its blend weight. */
  rerankTop: 20,
  rerankWeight: 0.5,
} as const;
