/**
 * @module memory/indexing
 * Derived-index maintenance for written memories: embed, upsert, record the model and time in D1.
 * Neither an embedding failure nor an index failure ever fails a write — D1 holds the row and its
 * FTS row (keyword recall finds it at once), `indexed_at` stays null, and the lifecycle repair job
 * embeds and indexes it when the model and the index answer again ("indexed later").
 */
import { MemoryError } from "./errors";
import { vectorsFault } from "./model-gate";
import type { MemoryDeps } from "./service-deps";
import type { Memory, Owner } from "./types";

/** An active memory whose vector is still to come: keyword recall finds it now, index repair embeds it. */
export function awaitsIndex(memory: Pick<Memory, "status" | "indexedAt">): boolean {
  return memory.status === "active" && memory.indexedAt === null;
}

/** What a failure is, for a log line: a code or an error's name, never its message (it may quote the input). */
export function failureKind(err: unknown): string {
  return err instanceof MemoryError ? err.code : err instanceof Error ? err.name : "unknown";
}

/**
 * The embedder's vectors for `texts`, or null when it fails in any way: it throws (429, capacity,
 * timeout, a retired model) or answers with the wrong number or size of vectors, or a component that
 * is not finite (memory/model-gate.ts: a NaN would reach recall's scores). Every caller then
 * degrades (recall answers from BM25, a write stores its row unindexed); `what` says how, in the log.
 */
export async function embedOrNull(deps: MemoryDeps, texts: string[], what: string): Promise<Float32Array[] | null> {
  let vectors: Float32Array[];
  try {
    vectors = await deps.embedder.embed(texts);
  } catch (err) {
    deps.log.warn(`embedding failed; ${what}`, {
      model: deps.embedder.model,
      texts: texts.length,
      error: failureKind(err),
    });
    return null;
  }
  const fault = vectorsFault(vectors, texts.length, deps.embedder.dimensions);
  if (fault !== null) {
    deps.log.warn(`embedding answer malformed; ${what}`, {
      model: deps.embedder.model,
      texts: texts.length,
      vectors: vectors.length,
      fault,
    });
    return null;
  }
  return vectors;
}

/** The text a memory is embedded by: its summary for long content, else its content. */
export function embeddingText(memory: Pick<Memory, "content" | "summary">): string {
  return memory.summary ?? memory.content;
}

export async function indexVectors(
  deps: MemoryDeps,
  owner: Owner,
  items: { id: string; vector: Float32Array }[],
  now = deps.clock.now(),
): Promise<{ indexed: number; failed: number }> {
  if (items.length === 0) return { indexed: 0, failed: 0 };
  if (!(await upsertVectors(deps, owner, items, now))) return { indexed: 0, failed: items.length };
  await deps.repo.markIndexed(
    owner,
    items.map((i) => i.id),
    deps.embedder.model,
    now,
  );
  return { indexed: items.length, failed: 0 };
}

/**
 * The index half of indexVectors, for callers that record `indexed_at` in their own D1 write (a
 * save upserts first and writes the row once: one round trip fewer). A vector whose row then fails
 * to land is a stray the repair job removes; recall never returns it (hits are validated in D1).
 */
export async function upsertVectors(
  deps: MemoryDeps,
  owner: Owner,
  items: { id: string; vector: Float32Array }[],
  now: number,
): Promise<boolean> {
  try {
    await deps.index.upsert(owner, items);
  } catch (err) {
    for (const item of items) deps.fresh.add(item.id, item.vector, now);
    deps.log.warn("vector upsert failed; rows stay unindexed until repair", {
      count: items.length,
      error: String(err),
    });
    return false;
  }
  if (deps.index.eventual) for (const item of items) deps.fresh.add(item.id, item.vector, now);
  return true;
}

export interface IndexOutcome {
  indexed: number;
  failed: number;
  /** Why the failed ones failed: the embedder gave no vectors, or the index refused them. */
  cause?: "embedder" | "index";
}

/**
 * Embeds and indexes stored memories; never throws for an AI or index failure. The memories given
 * are updated in place on success (embeddingModel, indexedAt), so an answer built from them tells
 * the truth about D1; on failure they keep indexed_at null for the repair job.
 */
export async function embedAndIndex(deps: MemoryDeps, owner: Owner, memories: Memory[]): Promise<IndexOutcome> {
  if (memories.length === 0) return { indexed: 0, failed: 0 };
  const vectors = await embedOrNull(deps, memories.map(embeddingText), "the memories are indexed later");
  if (!vectors) return { indexed: 0, failed: memories.length, cause: "embedder" };
  const at = deps.clock.now();
  const r = await indexVectors(
    deps,
    owner,
    memories.map((m, i) => ({ id: m.id, vector: vectors[i] })),
    at,
  );
  if (r.failed > 0) return { ...r, cause: "index" };
  for (const m of memories) Object.assign(m, { embeddingModel: deps.embedder.model, indexedAt: at });
  return r;
}

export async function unindex(deps: MemoryDeps, owner: Owner, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  deps.fresh.remove(ids);
  try {
    await deps.index.remove(owner, ids);
  } catch (err) {
    deps.log.warn("vector removal failed; repair will retry", { count: ids.length, error: String(err) });
  }
}
