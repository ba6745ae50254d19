/**
 * @module scripts/lib/bench-metrics
 * Ranking metrics of the recall benchmark, per query and averaged: Recall@5, Recall@10, MRR@10 and
 * nDCG@10 with binary relevance, plus nearest-rank percentiles for latency. Pure.
 */

export interface QueryScores {
  recall5: number;
  recall10: number;
  mrr10: number;
  ndcg10: number;
}

export interface Summary extends QueryScores {
  queries: number;
}

/** Recall@k: share of the relevant ids found in the first k results. */
export function recallAt(ranked: string[], relevant: Set<string>, k: number): number {
  if (relevant.size === 0) return 0;
  let found = 0;
  for (const id of new Set(ranked.slice(0, k))) if (relevant.has(id)) found++;
  return found / relevant.size;
}

/** Reciprocal rank of the first relevant id within the first k results (0 when none). */
export function reciprocalRankAt(ranked: string[], relevant: Set<string>, k: number): number {
  const at = ranked.slice(0, k).findIndex((id) => relevant.has(id));
  return at === -1 ? 0 : 1 / (at + 1);
}

/** nDCG@k with binary gains: DCG of the ranking over DCG of an ideal one. */
export function ndcgAt(ranked: string[], relevant: Set<string>, k: number): number {
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function scoreQuery(ranked: string[], relevantIds: string[]): QueryScores {
  const relevant = new Set(relevantIds);
  return {
    recall5: recallAt(ranked, relevant, 5),
    recall10: recallAt(ranked, relevant, 10),
    mrr10: reciprocalRankAt(ranked, relevant, 10),
    ndcg10: ndcgAt(ranked, relevant, 10),
  };
}

export function summarize(scores: QueryScores[]): Summary {
  const n = scores.length;
  const mean = (pick: (s: QueryScores) => number) => (n === 0 ? 0 : scores.reduce((sum, s) => sum + pick(s), 0) / n);
  return {
    queries: n,
    recall5: mean((s) => s.recall5),
    recall10: mean((s) => s.recall10),
    mrr10: mean((s) => s.mrr10),
    ndcg10: mean((s) => s.ndcg10),
  };
}

/** Summaries overall and per category, categories in sorted order. */
export function summarizeByCategory(scored: { category: string; scores: QueryScores }[]): {
  overall: Summary;
  byCategory: Record<string, Summary>;
} {
  const groups = new Map<string, QueryScores[]>();
  for (const s of scored) groups.set(s.category, [...(groups.get(s.category) ?? []), s.scores]);
  const byCategory: Record<string, Summary> = {};
  for (const category of [...groups.keys()].sort()) byCategory[category] = summarize(groups.get(category)!);
  return { overall: summarize(scored.map((s) => s.scores)), byCategory };
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
