/**
 * @module memory/import/import-batches
 * Writes an import's rows as a sequence of bounded D1 batches. A D1 batch is one transaction that
 * counts against the 30 s query limit as a whole and holds the database for every user while it runs,
 * so a 5,000-line import is never one batch: it is `rowsPerBatch` rows at a time (each batch a few
 * multi-row statements, storage/d1-bulk-rows.ts). The request stays all or nothing: when a batch fails, the batches
 * already written are removed again (bounded purges, content-free purge events) before the error
 * goes back; only if that clean-up fails too does the error say which lines remain.
 */
import { MemoryError } from "../errors";
import type { MemoryWrite } from "../ports";
import type { MemoryDeps } from "../service-deps";
import type { Scope } from "../types";

/** Rows per D1 batch by default: three multi-row statements, milliseconds of work (docs/benchmarks.md). */
export const IMPORT_BATCH_ROWS = 500;

export interface BatchTiming {
  /** D1 batches the rows went in. */
  count: number;
  /** Wall time of the longest one (ms). */
  longestMs: number;
}

export interface BatchPlan {
  /** The request line a row came from (for the error when a rollback fails). */
  lineOf: (w: MemoryWrite) => number;
  rowsPerBatch?: number;
  /**
   * Called on a failure, before the error is thrown, with the ids of the rows that are NOT in D1:
   * all of them after a clean rollback, only the never-written ones when the rollback failed too.
   * The caller drops what it derived for them (their vectors), and only for them: rows left stored
   * keep their vectors, so their indexed_at stays true.
   */
  onUnstored: (ids: string[]) => Promise<void>;
}

/** Writes `writes` in order, `rowsPerBatch` rows per batch; rolls back on a failure (see the module note). */
export async function writeInBatches(
  deps: MemoryDeps,
  scope: Scope,
  writes: MemoryWrite[],
  plan: BatchPlan,
): Promise<BatchTiming> {
  const rowsPerBatch = plan.rowsPerBatch ?? IMPORT_BATCH_ROWS;
  const timing: BatchTiming = { count: 0, longestMs: 0 };
  const written: MemoryWrite[] = [];
  for (let i = 0; i < writes.length; i += rowsPerBatch) {
    const part = writes.slice(i, i + rowsPerBatch);
    const started = Date.now();
    try {
      await deps.repo.write(scope, part, []);
    } catch (err) {
      const { error, stillStored } = await rollBack(deps, scope, written, plan.lineOf, err);
      const stored = new Set(stillStored.map((w) => w.memory.id));
      await plan.onUnstored(writes.filter((w) => !stored.has(w.memory.id)).map((w) => w.memory.id));
      throw error;
    }
    timing.count++;
    timing.longestMs = Math.max(timing.longestMs, Date.now() - started);
    written.push(...part);
  }
  return timing;
}

async function rollBack(
  deps: MemoryDeps,
  scope: Scope,
  written: MemoryWrite[],
  lineOf: (w: MemoryWrite) => number,
  cause: unknown,
): Promise<{ error: MemoryError; stillStored: MemoryWrite[] }> {
  if (written.length === 0)
    return { error: asMemoryError(cause, "Import failed; nothing was imported"), stillStored: [] };
  try {
    await deps.repo.purge(
      scope,
      written.map((w) => w.memory.id),
      "import-rollback",
      deps.clock.now(),
    );
    return {
      error: asMemoryError(cause, "Import failed and was rolled back; nothing was imported"),
      stillStored: [],
    };
  } catch {
    const last = lineOf(written[written.length - 1]);
    deps.log.error("import rollback failed", { rows: written.length, lastLine: last });
    // The database's own message may quote bound parameters (memory text): it never goes on the wire.
    const error = new MemoryError(
      "internal",
      `Import failed after lines up to ${last} were stored, and removing them failed too; re-sending the request skips lines whose external_id is stored`,
    );
    return { error, stillStored: written };
  }
}

function asMemoryError(cause: unknown, prefix: string): MemoryError {
  if (cause instanceof MemoryError) return new MemoryError(cause.code, `${prefix}: ${cause.message}`, cause.field);
  return new MemoryError("internal", `${prefix}: the database refused a batch`);
}
