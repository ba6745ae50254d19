/**
 * @module memory/indexing
 * Derived-index maintenance for written memories: embed, upsert, record the model and time in D1.
 * An index failure never fails the write — D1 already holds the row; the fresh buffer keeps it
 * recallable and the lifecycle repair job re-indexes rows whose indexed_at is null.
 */
import type { MemoryDeps } from "./service-deps";
import type { Memory, Owner } from "./types";

/** The text a memory is embedded by: its summary for long content, else its content. */
export function embeddingText(memory: Pick<Memory, "content" | "summary">): string {
  return memory.summary ?? memory.content;
}

export async function indexVectors(
  deps: MemoryDeps,
  owner: Owner,
  items: { id: string; vector: Float32Array }[],
): Promise<{ indexed: number; failed: number }> {
  if (items.length === 0) return { indexed: 0, failed: 0 };
  const now = deps.clock.now();
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

export async function embedAndIndex(
  deps: MemoryDeps,
  owner: Owner,
  memories: Memory[],
): Promise<{ indexed: number; failed: number }> {
  if (memories.length === 0) return { indexed: 0, failed: 0 };
  const vectors = await deps.embedder.embed(memories.map(embeddingText));
  return indexVectors(
    deps,
    owner,
    memories.map((m, i) => ({ id: m.id, vector: vectors[i] })),
  );
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
