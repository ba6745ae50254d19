/**
 * @module memory/lifecycle/lifecycle-types
 * The vocabulary of lifecycle maintenance: job names, retention rules, the policy a run applies,
 * what a Durable Object is asked to do and what it reports. Shared by the jobs, the batch runner,
 * the cron fan-out (jobs/scheduled.ts) and the on-demand tools. Plain data only: it crosses RPC.
 */
import type { MemoryType } from "../types";

/** Every job, in the order one maintenance run executes them (cheap and privacy-relevant first). */
export const LIFECYCLE_JOBS = ["expire", "purge", "repair", "consolidate", "decay", "migrate", "entities"] as const;
export type LifecycleJobName = (typeof LIFECYCLE_JOBS)[number];

export const DAY_MS = 86_400_000;

/**
 * Declarative retention: active memories matching the selector expire `days` after they were saved,
 * unless their priority number is at most `keepPriorityAtMost` (1 = core, so "1" pins priority 1).
 */
export interface RetentionRule {
  category?: string;
  memoryType?: MemoryType;
  days: number;
  keepPriorityAtMost?: number;
}

/** What a run applies; built once from config (composition.ts) and sent with each request. */
export interface LifecyclePolicy {
  /** Tombstones (deleted, expired, superseded) older than this many days are purged. */
  retentionDays: number;
  retentionRules: RetentionRule[];
  /** Importance of never-recalled memories halves every this many days. */
  halfLifeDays: number;
  /** Rows per batch (≤ 100: one Workers AI embedding call). */
  batchSize: number;
}

export interface MaintenanceBudget {
  /** Wall-clock milliseconds this request may spend before it stops between batches. */
  maxMs: number;
  /** Rows this request may process in total before it stops between batches. */
  maxRows: number;
  /** Repo calls this request may make (default MAX_REPO_CALLS): D1 caps queries per invocation. */
  maxRepoCalls?: number;
}

/**
 * D1 allows 1,000 queries per invocation on Workers Paid, and one maintenance request is one Durable
 * Object invocation. A repo call is one query, or a few when it chunks ids (≤ 90 per statement), so
 * a request stops starting batches at 400 calls.
 */
export const MAX_REPO_CALLS = 400;

export interface MaintenanceRequest {
  /** The run's reference time (the cron's scheduled time): every cutoff is computed from it. */
  now: number;
  jobs: LifecycleJobName[];
  policy: LifecyclePolicy;
  budget: MaintenanceBudget;
  /** Full passes: consolidate every active memory, re-embed every active memory (not only pending ones). */
  full?: { consolidate?: boolean; reembed?: boolean };
}

export interface ConsolidatedCluster {
  kept: string;
  merged: string[];
}

export interface JobReport {
  job: LifecycleJobName;
  /** Rows examined. */
  processed: number;
  /** Rows changed (expired, purged, indexed, superseded, decayed). */
  changed: number;
  /** Repair only: vectors deleted because their row is gone or no longer active. */
  removed?: number;
  batches: number;
  /** True when the job found nothing more to do; false when the budget ran out or it failed. */
  complete: boolean;
  error?: string;
  /** Consolidation only: which memory absorbed which. */
  clusters?: ConsolidatedCluster[];
}

export interface MaintenanceReport {
  jobs: JobReport[];
  complete: boolean;
  elapsedMs: number;
}
