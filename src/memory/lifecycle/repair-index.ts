/**
 * @module memory/lifecycle/repair-index
 * Index repair: D1 is the truth, the vector index is derived and must not drift from it.
 *  1. Upsert phase — active rows with indexed_at null (a failed upsert, a restore, an edit, an import)
 *     are embedded (≤ 100 texts a call) and upserted; markIndexed records model and time.
 *  2. Orphan phase — vectors whose row is gone or no longer active are deleted. Only for an index that
 *     can list its ids (the local index). Vectorize cannot enumerate, so there drift is prevented
 *     instead: every status change removes the vector by id (indexing.ts unindex), the purge job
 *     deletes by id again before the row goes, and recall re-validates every hit against D1.
 * Cursor: "u:<keyset>" or "o:<last id>". A failing embedder or upsert halts the job with its cursor unchanged,
 * leaving the rows unindexed but recallable (lexically, and via the fresh buffer) until the next run.
 */
import { embedAndIndex } from "../indexing";
import type { BatchResult, JobContext, LifecycleJob } from "./batch-runner";
import { decodeKeyset, encodeKeyset } from "./batch-runner";

/** getMany binds one parameter per id; D1 allows 100. */
const ORPHAN_CHECK_CHUNK = 90;

async function upsertPhase(ctx: JobContext, after: string | null, limit: number): Promise<BatchResult> {
  const rows = await ctx.deps.repo.listActivePage(ctx.owner, { after: decodeKeyset(after), limit, pending: "index" });
  if (rows.length === 0) return orphanPhase(ctx, null, limit);
  const r = await embedAndIndex(ctx.deps, ctx.owner, rows);
  if (r.failed > 0)
    return {
      processed: rows.length,
      changed: 0,
      cursor: null,
      done: false,
      halt: `${r.cause === "embedder" ? "embedding model unavailable" : "vector upsert failed"} for ${r.failed} memories; they stay unindexed until the next run`,
    };
  const last = rows[rows.length - 1];
  // A short page ends the upsert phase; the orphan phase starts on the next batch.
  const cursor = rows.length < limit ? "o:" : `u:${encodeKeyset(last.createdAt, last.id)}`;
  return { processed: rows.length, changed: r.indexed, cursor, done: false };
}

async function indexedIds(ctx: JobContext): Promise<string[] | undefined> {
  const cached = ctx.memo.get("repair:ids") as string[] | undefined;
  if (cached) return cached;
  const ids = await ctx.deps.index.listIds?.(ctx.owner);
  if (ids) ctx.memo.set("repair:ids", [...ids].sort());
  return ctx.memo.get("repair:ids") as string[] | undefined;
}

async function orphanPhase(ctx: JobContext, afterId: string | null, limit: number): Promise<BatchResult> {
  const all = await indexedIds(ctx);
  if (!all) return { processed: 0, changed: 0, cursor: null, done: true };
  const page = all.filter((id) => afterId === null || id > afterId).slice(0, Math.max(limit, ORPHAN_CHECK_CHUNK));
  if (page.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
  const live = new Set<string>();
  for (let i = 0; i < page.length; i += ORPHAN_CHECK_CHUNK) {
    const rows = await ctx.deps.repo.getMany(ctx.owner, page.slice(i, i + ORPHAN_CHECK_CHUNK));
    for (const m of rows) if (m.status === "active") live.add(m.id);
  }
  const orphans = page.filter((id) => !live.has(id));
  if (orphans.length > 0) await ctx.deps.index.remove(ctx.owner, orphans);
  ctx.deps.fresh.remove(orphans);
  const done = page[page.length - 1] === all[all.length - 1];
  return { processed: page.length, changed: 0, removed: orphans.length, cursor: `o:${page[page.length - 1]}`, done };
}

export const repairIndexJob: LifecycleJob = {
  name: "repair",
  async batch(ctx, cursor, limit): Promise<BatchResult> {
    if (cursor?.startsWith("o:")) return orphanPhase(ctx, cursor.slice(2) || null, limit);
    return upsertPhase(ctx, cursor?.startsWith("u:") ? cursor.slice(2) : null, limit);
  },
};
