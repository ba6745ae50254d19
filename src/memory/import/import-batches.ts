/**
 * @module memory/import/import-batches
 * Writes an import's rows as a sequence of bounded D1 batches. A D1 batch is one transaction that
 * counts against the 30 s query limit as a whole and holds the database for every user while it runs,
 * so a 5,000-line import is never one batch: it is `rowsPerBatch` rows at a time (each batch a few
 * multi-row statements, storage/d1-bulk-rows.ts). The request stays all or nothing: when a batch fails, the batches
 * already written are removed again (bounded purges, content-free purge events) before the error
 * goes back; only if that clean-up fails too does the error say which lines remain. A request is
 * also one invocation of the user's Durable Object, with the platform's D1 allowance: a batch starts
 * only while it, the links pass after it and the rollback of everything written so far still fit
 * (`deps.invocation`); past that the request is rolled back and refused with `limit_exceeded`, so a
 * request too large for one invocation leaves nothing behind and says to send fewer lines.
 */
import { MemoryError } from "../errors";
import type { MemoryWrite } from "../ports";
import type { MemoryDeps } from "../service-deps";
import type { Scope } from "../types";

/** Rows per D1 batch by default: three multi-row statements, milliseconds of work (docs/benchmarks.md). */
export const IMPORT_BATCH_ROWS = 500;

/** D1 calls assumed for a batch before one has run, and kept back for the links pass after the last. */
const FIRST_BATCH_CALLS = 8;
const AFTER_BATCHES_CALLS = 4;
/**
 * D1 statements a batch of these rows takes at most: its rows, FTS rows and events go as JSON
 * parameters of under 900 KB each (storage/d1-bulk-rows.ts), the FTS ones two statements apiece.
 */
function batchCalls(part: MemoryWrite[]): number {
  const chars = part.reduce((n, w) => n + w.memory.content.length * 2 + 1_000 + (w.history?.length ?? 0) * 500, 0);
  return 4 * Math.ceil((chars * 3) / 900_000) + 1;
}

function tooLarge(done: number, total: number): MemoryError {
  return new MemoryError(
    "limit_exceeded",
    `platform limit d1_queries_per_invocation: this import of ${total} rows needs more D1 queries than one request may make${done > 0 ? ` (it stopped after ${done} rows, and rolled them back)` : "; nothing was written"}; send fewer lines per request`,
    "d1_queries_per_invocation",
  );
}

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
  const left = () => deps.invocation?.callsLeft() ?? Number.POSITIVE_INFINITY;
  const parts: MemoryWrite[][] = [];
  for (let i = 0; i < writes.length; i += rowsPerBatch) parts.push(writes.slice(i, i + rowsPerBatch));
  // Refused before anything is written when the batches cannot all fit this invocation (a rollback
  // would not fit either: it purges row by row).
  const needed = parts.reduce((n, p) => n + Math.max(FIRST_BATCH_CALLS, batchCalls(p)), AFTER_BATCHES_CALLS);
  if (needed > left()) throw tooLarge(0, writes.length);
  for (const part of parts) {
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
