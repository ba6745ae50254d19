/**
 * @module memory/lifecycle/consolidate-memories
 * Consolidation: clusters of near-duplicate fragments of one user — same agent, same category — fold
 * into one memory. Five "I like Python" fragments (say, from an import that stores rows as given)
 * become one: the most complete, most recent fragment absorbs the others' tags, priority and usage,
 * and the others become `superseded` by it, listed in its derived_from (restore_memory undoes it).
 *
 * Per batch, for up to SEEDS_PER_BATCH memories not yet consolidated (or every active memory on a
 * full pass), oldest first:
 *  1. neighbours: vector index + fresh buffer + BM25, like the write path's similarity search but
 *     batched (consolidation-neighbours.ts), narrowed to the same agent and category;
 *  2. a pair is a duplicate when it is strict (same hash, or cosine ≥ 0.9 and token overlap ≥ 0.6),
 *     or when the Llm port says so for a pair similar enough to ask; a pair the Llm calls a
 *     contradiction is never merged (that is the write path's supersede, not consolidation);
 *  3. duplicate pairs join into clusters; each is checked once more by the Llm against its winner,
 *     re-read from D1 just before it is written (a memory its user changed meanwhile is left alone),
 *     and written in one D1 batch.
 * Seeds are then marked consolidated_at, so a memory is compared once after it arrives; a keyset
 * cursor lets a full pass resume.
 * Embedding model unavailable: the batch runs on BM25 neighbours alone (cosine 0, so only same-hash
 * pairs are strict and the Llm judges the pairs that share words), its merges are written, but its
 * seeds are not marked and the job halts with its cursor kept: they are compared again, with
 * vectors, once the model is back.
 */
import { embeddingText, embedOrNull, unindex } from "../indexing";
import type { Memory } from "../types";
import type { BatchResult, JobContext, LifecycleJob } from "./batch-runner";
import { decodeKeyset, encodeKeyset } from "./batch-runner";
import {
  absorbPatch,
  clusterEdges,
  foldPatch,
  isStrictDuplicate,
  type Pair,
  pickWinner,
  worthAsking,
} from "./consolidation-clusters";
import { neighbourPairs } from "./consolidation-neighbours";
import type { ConsolidatedCluster } from "./lifecycle-types";

/** Each seed costs an index query and a BM25 query (run in parallel); keep a batch to about a second. */
const SEEDS_PER_BATCH = 25;

/** Duplicate edges from one seed: strict pairs, plus those the Llm confirms; its contradictions are dropped. */
async function seedEdges(ctx: JobContext, seed: Memory, pairs: Pair[]): Promise<[string, string][]> {
  const duplicates = new Set(pairs.filter(isStrictDuplicate).map((p) => p.other.id));
  const contradicted = new Set<string>();
  let ask = pairs.filter((p) => !duplicates.has(p.other.id) && worthAsking(p));
  // duplicateOf names one candidate per answer: ask again without it until the Llm finds no more.
  while (ask.length > 0) {
    const decision = await ctx.deps.llm.decideConflict(
      seed.content,
      ask.map((p, i) => ({ handle: i + 1, content: p.other.content, category: p.other.category })),
    );
    for (const h of decision.supersedes) if (ask[h - 1]) contradicted.add(ask[h - 1].other.id);
    const dup = decision.duplicateOf !== null ? ask[decision.duplicateOf - 1] : undefined;
    if (!dup) break;
    duplicates.add(dup.other.id);
    ask = ask.filter((p) => p !== dup && !contradicted.has(p.other.id));
  }
  return [...duplicates].filter((id) => !contradicted.has(id)).map((id) => [seed.id, id]);
}

/** Folds one cluster into its winner; returns what happened, or null when nothing is left to merge. */
async function mergeCluster(ctx: JobContext, members: Memory[]): Promise<ConsolidatedCluster | null> {
  const winner = pickWinner(members);
  const candidates = members.filter((m) => m.id !== winner.id);
  const check = await ctx.deps.llm.decideConflict(
    winner.content,
    candidates.map((m, i) => ({ handle: i + 1, content: m.content, category: m.category })),
  );
  const vetoed = new Set(check.supersedes.map((h) => candidates[h - 1]?.id));
  const others = candidates.filter((m) => !vetoed.has(m.id));
  if (others.length === 0) return null;
  // Re-read right before writing: a memory edited, deleted or merged meanwhile (by its user) is left alone.
  const current = new Map(
    (
      await ctx.deps.repo.getMany(
        ctx.owner,
        [winner, ...others].map((m) => m.id),
      )
    ).map((m) => [m.id, m]),
  );
  if (
    [winner, ...others].some(
      (m) => current.get(m.id)?.status !== "active" || current.get(m.id)?.updatedAt !== m.updatedAt,
    )
  )
    return null;
  const patches = [
    absorbPatch(winner, others, ctx.actor, ctx.now),
    ...others.map((m) => foldPatch(m, winner.id, ctx.actor, ctx.now)),
  ];
  await ctx.deps.repo.write(ctx.owner, [], patches);
  await unindex(
    ctx.deps,
    ctx.owner,
    others.map((m) => m.id),
  );
  return { kept: winner.id, merged: others.map((m) => m.id) };
}

/** The clusters of one batch's seeds, each folded into its winner (those left to merge). */
async function foldClusters(ctx: JobContext, seeds: Memory[], vectors: Float32Array[] | null) {
  const pairs = await neighbourPairs(ctx, seeds, vectors);
  const edges: [string, string][] = [];
  for (let i = 0; i < seeds.length; i++) edges.push(...(await seedEdges(ctx, seeds[i], pairs[i])));
  const known = new Map([...seeds, ...pairs.flat().map((p) => p.other)].map((m) => [m.id, m]));
  const clusters: ConsolidatedCluster[] = [];
  for (const ids of clusterEdges(edges)) {
    const merged = await mergeCluster(
      ctx,
      ids.map((id) => known.get(id)!),
    );
    if (merged) clusters.push(merged);
  }
  return clusters;
}

export const consolidateJob: LifecycleJob = {
  name: "consolidate",
  async batch(ctx, cursor, limit): Promise<BatchResult> {
    const size = Math.min(limit, SEEDS_PER_BATCH);
    const seeds = await ctx.deps.repo.listActivePage(ctx.owner, {
      after: decodeKeyset(cursor),
      limit: size,
      pending: ctx.full ? undefined : "consolidation",
    });
    if (seeds.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
    const vectors = await embedOrNull(ctx.deps, seeds.map(embeddingText), "consolidation compares by keywords");
    const clusters = await foldClusters(ctx, seeds, vectors);
    const changed = clusters.reduce((n, c) => n + c.merged.length, 0);
    if (!vectors) {
      const halt = `embedding model unavailable: ${seeds.length} memories compared by keywords only, again with vectors on the next run`;
      return { processed: seeds.length, changed, cursor, done: false, clusters, halt };
    }
    await ctx.deps.repo.markConsolidated(
      ctx.owner,
      [...seeds.map((m) => m.id), ...clusters.map((c) => c.kept)],
      ctx.now,
    );
    const last = seeds[seeds.length - 1];
    return {
      processed: seeds.length,
      changed,
      cursor: encodeKeyset(last.createdAt, last.id),
      done: seeds.length < size,
      clusters,
    };
  },
};
