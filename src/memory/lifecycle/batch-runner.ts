/**
 * @module memory/lifecycle/batch-runner
 * Runs one lifecycle job as a sequence of bounded batches under a shared budget (time, rows, repo
 * calls), with a resumable cursor. Each batch commits its own D1 writes before the cursor is saved, and every job
 * selects its rows by state (or by a keyset past the cursor), so a run killed at any point loses
 * nothing: the next run redoes at most the one batch whose cursor was not saved, which is idempotent.
 */

import type { CursorStore } from "../ports";
import { safeErrorText } from "../safe-error-text";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import {
  type JobReport,
  type LifecycleJobName,
  type LifecyclePolicy,
  MAX_REPO_CALLS,
  type MaintenanceBudget,
} from "./lifecycle-types";

export interface JobContext {
  deps: MemoryDeps;
  owner: Owner;
  actor: string;
  /** Reference time for every cutoff and event of this run. */
  now: number;
  policy: LifecyclePolicy;
  /** Full pass (every active row) instead of the rows still pending. */
  full: boolean;
  /** Per-run scratch space a job may use to avoid repeating expensive reads between its batches. */
  memo: Map<string, unknown>;
}

export interface BatchResult {
  processed: number;
  changed: number;
  /** Where the next batch starts; ignored when `done`. */
  cursor: string | null;
  done: boolean;
  /** Set when the batch could not finish its rows (e.g. the vector index is down): the job stops and keeps its old cursor. */
  halt?: string;
  removed?: number;
  clusters?: JobReport["clusters"];
}

export interface LifecycleJob {
  name: LifecycleJobName;
  batch(ctx: JobContext, cursor: string | null, limit: number): Promise<BatchResult>;
}

/**
 * D1 calls a maintenance request keeps back from its invocation's allowance (the access flush and
 * the cursor's bookkeeping), and what it assumes a batch costs before it has run one.
 */
const INVOCATION_RESERVE = 5;
/** A batch's own reads (its page of rows, the cursor's lookups) and, until measured, the D1 calls per row it changes. */
const BATCH_FIXED_CALLS = 4;
const FIRST_CALLS_PER_ROW = 3;

/** Time, rows and repo calls left for one maintenance request, shared by its jobs. */
export class Budget {
  private readonly deadline: number;
  private readonly maxCalls: number;
  private rowsLeft: number;
  /** Costliest batch so far: a new batch starts only if one that long, and that many calls, still fit. */
  private slowestBatchMs = 0;
  private heaviestBatchCalls = 0;
  /** The most D1 calls per row a batch has taken of the invocation's allowance. */
  private d1PerRow = FIRST_CALLS_PER_ROW;

  constructor(
    limits: MaintenanceBudget,
    private readonly timer: () => number = Date.now,
    private readonly calls: () => number = () => 0,
    private readonly d1Left: () => number = () => Number.POSITIVE_INFINITY,
  ) {
    this.deadline = timer() + limits.maxMs;
    this.rowsLeft = limits.maxRows;
    this.maxCalls = limits.maxRepoCalls ?? MAX_REPO_CALLS;
  }

  exhausted(): boolean {
    return (
      this.rowsLeft <= 0 ||
      this.timer() + this.slowestBatchMs > this.deadline ||
      this.calls() + this.heaviestBatchCalls > this.maxCalls ||
      this.rowsThatFit() < 1
    );
  }

  /** Rows a batch may still change inside this invocation's D1 allowance (PLATFORM_LIMITS). */
  private rowsThatFit(): number {
    const room = this.d1Left() - INVOCATION_RESERVE - BATCH_FIXED_CALLS;
    return Number.isFinite(room) ? Math.floor(room / this.d1PerRow) : Number.POSITIVE_INFINITY;
  }

  /** Rows the next batch may take: the batch size, or less near the end of the row or D1 budget. */
  nextLimit(batchSize: number): number {
    return Math.max(1, Math.min(batchSize, this.rowsLeft, this.rowsThatFit()));
  }

  mark(): { at: number; calls: number; d1Left: number } {
    return { at: this.timer(), calls: this.calls(), d1Left: this.d1Left() };
  }

  spend(rows: number, since: { at: number; calls: number; d1Left: number }): void {
    this.rowsLeft -= rows;
    this.slowestBatchMs = Math.max(this.slowestBatchMs, this.timer() - since.at);
    this.heaviestBatchCalls = Math.max(this.heaviestBatchCalls, this.calls() - since.calls);
    const d1 = since.d1Left - this.d1Left();
    if (Number.isFinite(d1) && rows > 0) this.d1PerRow = Math.max(this.d1PerRow, (d1 - BATCH_FIXED_CALLS) / rows);
  }
}

export function cursorKey(job: LifecycleJobName, full: boolean): string {
  return `lifecycle:${job}${full ? ":full" : ""}`;
}

/** Batches until the job is done, the budget runs out or a batch fails; the cursor is saved after each batch. */
export async function runJob(
  job: LifecycleJob,
  ctx: JobContext,
  cursors: CursorStore,
  budget: Budget,
): Promise<JobReport> {
  const key = cursorKey(job.name, ctx.full);
  let cursor = await cursors.get(key);
  const report: JobReport = { job: job.name, processed: 0, changed: 0, batches: 0, complete: false };
  while (!budget.exhausted()) {
    const started = budget.mark();
    let result: BatchResult;
    try {
      result = await job.batch(ctx, cursor, budget.nextLimit(ctx.policy.batchSize));
    } catch (err) {
      report.error = safeErrorText(err);
      ctx.deps.log.warn("lifecycle batch failed; the next run resumes from the saved cursor", {
        job: job.name,
        error: report.error,
      });
      break;
    }
    budget.spend(Math.max(1, result.processed), started);
    report.batches++;
    report.processed += result.processed;
    report.changed += result.changed;
    if (result.removed) report.removed = (report.removed ?? 0) + result.removed;
    if (result.clusters?.length) report.clusters = [...(report.clusters ?? []), ...result.clusters];
    if (result.halt) {
      report.error = result.halt;
      break;
    }
    cursor = result.done ? null : result.cursor;
    await cursors.put(key, cursor);
    if (result.done) {
      report.complete = true;
      break;
    }
  }
  return report;
}

export function encodeKeyset(createdAt: number, id: string): string {
  return JSON.stringify([createdAt, id]);
}

export function decodeKeyset(cursor: string | null): { createdAt: number; id: string } | null {
  if (!cursor) return null;
  try {
    const [createdAt, id] = JSON.parse(cursor) as [unknown, unknown];
    return typeof createdAt === "number" && typeof id === "string" ? { createdAt, id } : null;
  } catch {
    // A cursor from an older format restarts the pass, which is safe: every job is idempotent.
    return null;
  }
}
