/**
 * @module memory/lifecycle/migrate-embeddings
 * Model migration: after EMBEDDING_MODEL (or EMBEDDING_DIMENSIONS) changes, active rows indexed with
 * another model key are re-embedded with the current one in batches of ≤ 100 texts (one Workers AI
 * call) and upserted over their old vectors. Until a row is migrated it keeps its old vector and
 * stays findable lexically (BM25), so recall keeps working throughout; memory_stats shows progress as
 * `other_model`. A full pass (regenerate_embeddings with all=true) re-embeds every active row instead,
 * walking a (created_at, id) keyset cursor.
 * State-driven otherwise: a migrated row leaves the selection. A failed embedding or upsert halts the job; the
 * rows keep their old vectors and the next run retries.
 */
import { embedAndIndex } from "../indexing";
import type { Memory } from "../types";
import type { BatchResult, JobContext, LifecycleJob } from "./batch-runner";
import { decodeKeyset, encodeKeyset } from "./batch-runner";

async function select(ctx: JobContext, cursor: string | null, limit: number): Promise<Memory[]> {
  if (ctx.full) return ctx.deps.repo.listActivePage(ctx.owner, { after: decodeKeyset(cursor), limit });
  return ctx.deps.repo.listOtherModel(ctx.owner, ctx.deps.embedder.model, limit);
}

export const migrateEmbeddingsJob: LifecycleJob = {
  name: "migrate",
  async batch(ctx, cursor, limit): Promise<BatchResult> {
    const rows = await select(ctx, cursor, limit);
    if (rows.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
    const r = await embedAndIndex(ctx.deps, ctx.owner, rows);
    if (r.failed > 0)
      return {
        processed: rows.length,
        changed: 0,
        cursor,
        done: false,
        halt: `${r.cause === "embedder" ? "embedding model unavailable" : "vector upsert failed"} for ${r.failed} memories; they keep their old vectors until the next run`,
      };
    const last = rows[rows.length - 1];
    return {
      processed: rows.length,
      changed: r.indexed,
      cursor: encodeKeyset(last.createdAt, last.id),
      done: rows.length < limit,
    };
  },
};
