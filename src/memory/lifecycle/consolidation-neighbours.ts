/**
 * @module memory/lifecycle/consolidation-neighbours
 * The candidate duplicates of a batch of consolidation seeds, found the way the write path finds them
 * (vector index + fresh buffer for cosine, BM25 to widen the net for short texts) but for the whole
 * batch at once: index and BM25 queries run in parallel and all candidates are hydrated from D1 in
 * one getMany, so a batch costs a handful of round trips rather than three per seed. Candidates are
 * narrowed to active memories of the seed's own agent and category. Without vectors (the embedding
 * model is unavailable) the candidates are the BM25 hits alone, each with cosine 0.
 */
import { queryTokens } from "../text/tokenize";
import type { Memory, ScoredId } from "../types";
import type { JobContext } from "./batch-runner";
import { type Pair, sameGroup } from "./consolidation-clusters";

const DENSE_K = 10;
const LEXICAL_K = 10;
/** Closest candidates kept per seed (by cosine; BM25-only ones last). */
const MAX_CANDIDATES = 8;

function bestCosines(hits: ScoredId[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const h of hits) best.set(h.id, Math.max(best.get(h.id) ?? -1, h.score));
  return best;
}

export async function neighbourPairs(
  ctx: JobContext,
  seeds: Memory[],
  vectors: Float32Array[] | null,
): Promise<Pair[][]> {
  const { deps, owner } = ctx;
  const now = deps.clock.now();
  const [dense, lexical] = await Promise.all([
    Promise.all((vectors ?? []).map((v) => deps.index.query(owner, v, DENSE_K).catch(() => [] as ScoredId[]))),
    Promise.all(seeds.map((s) => deps.repo.searchText(owner, queryTokens(s.content), LEXICAL_K))),
  ]);
  const cosines = seeds.map((_, i) =>
    vectors ? bestCosines([...dense[i], ...deps.fresh.score(vectors[i], DENSE_K, now)]) : new Map<string, number>(),
  );
  const ids = new Set<string>();
  seeds.forEach((_, i) => {
    cosines[i].forEach((_, id) => ids.add(id));
    lexical[i].forEach((h) => ids.add(h.id));
  });
  const rows = new Map((await deps.repo.getMany(owner, [...ids])).map((m) => [m.id, m]));
  return seeds.map((seed, i) => {
    const candidateIds = new Set([...cosines[i].keys(), ...lexical[i].map((h) => h.id)]);
    return [...candidateIds]
      .map((id) => rows.get(id))
      .filter((m): m is Memory => m !== undefined && m.status === "active" && sameGroup(seed, m))
      .map((other) => ({ seed, other, cosine: cosines[i].get(other.id) ?? 0 }))
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, MAX_CANDIDATES);
  });
}
