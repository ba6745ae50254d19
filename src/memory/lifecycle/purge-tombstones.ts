/**
 * @module memory/lifecycle/purge-tombstones
 * Purge job: deleted, expired and superseded memories whose tombstone time (deleted_at, else
 * updated_at) is older than SOFT_DELETE_RETENTION_DAYS leave for good — row, FTS entry and vector.
 * The event log keeps a content-free `purge` record and the memory's earlier events lose their
 * before/after snapshots (MemoryRepo.purge), so no content survives.
 * Vectors go first: if the index refuses, D1 is left untouched and the next run retries, so a vector
 * can never outlive its row unnoticed (Vectorize cannot be listed, so deleting by id here is what
 * keeps it clean). State-driven: purged rows vanish from the selection; no cursor is needed.
 */
import type { BatchResult, LifecycleJob } from "./batch-runner";
import { DAY_MS } from "./lifecycle-types";

export const purgeJob: LifecycleJob = {
  name: "purge",
  async batch(ctx, _cursor, limit): Promise<BatchResult> {
    const { deps, owner } = ctx;
    const cutoff = ctx.now - ctx.policy.retentionDays * DAY_MS;
    const rows = await deps.repo.listTombstones(owner, cutoff, limit);
    if (rows.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
    const ids = rows.map((m) => m.id);
    deps.fresh.remove(ids);
    await deps.index.remove(owner, ids);
    // The predicate again at delete time: a memory restored since the select stays.
    await deps.repo.purge(owner, ids, ctx.actor, ctx.now, cutoff);
    return { processed: ids.length, changed: ids.length, cursor: null, done: rows.length < limit };
  },
};
