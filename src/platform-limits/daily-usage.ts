/**
 * @module platform-limits/daily-usage
 * What one user's memory spent today (UTC) of the plan's daily allowances: the D1 rows its queries read
 * and wrote (D1's own `meta.rows_read` / `meta.rows_written`, storage/metered-d1.ts), its Workers AI
 * calls by kind, and the Workers AI calls refused for the rate limit or the spent daily allocation.
 * Pure: the user's Durable Object (the one writer) adds each call's figures and keeps the day's record
 * (durable/daily-usage-record.ts). Workers Free's daily limits are the ACCOUNT's: a user's figures are
 * their share of them, never the account's total, which the Worker cannot see.
 */
import type { PlatformLimits } from "./platform-limits";

/**
 * Workers Free's daily allowances, each reset at 00:00 UTC; past one, that kind of operation fails
 * until the reset. Sources (read 2026-12-05): D1 pricing (rows read 5,000,000 and written 100,000 a
 * day), KV limits (100,000 reads, 1,000 writes to different keys a day), Workers AI pricing (10,000
 * neurons a day), Workers limits (100,000 requests a day), Durable Objects pricing (100,000 requests
 * and 13,000 GB-s a day; SQLite storage 5,000,000 rows read and 100,000 written a day).
 */
export const FREE_DAILY_ALLOWANCES = {
  workers_requests: 100_000,
  durable_object_requests: 100_000,
  durable_object_gb_seconds: 13_000,
  durable_object_sqlite_rows_read: 5_000_000,
  durable_object_sqlite_rows_written: 100_000,
  d1_rows_read: 5_000_000,
  d1_rows_written: 100_000,
  kv_reads: 100_000,
  kv_writes: 1_000,
  workers_ai_neurons: 10_000,
} as const;

export type DailyAllowances = { readonly [K in keyof typeof FREE_DAILY_ALLOWANCES]: number };

/** The plan's hard daily allowances: Workers Free's; none on Paid (billed past monthly inclusions) or custom/off. */
export function dailyAllowances(limits: PlatformLimits): DailyAllowances | null {
  return limits.plan === "free" ? FREE_DAILY_ALLOWANCES : null;
}

/** Workers AI calls one invocation made, and how the refused ones were refused. */
export interface AiTally {
  embeddings: number;
  generations: number;
  reranks: number;
  /** Calls that failed for any reason (the two below included). */
  failures: number;
  /** Refused by the rate limit (HTTP 429 / "rate limit"). */
  rateLimited: number;
  /** Refused because the account's daily free allocation of neurons is spent. */
  dailyAllocation: number;
  /** When the last of those two refusals happened (ms), null if none. */
  lastLimitAt: number | null;
}

export const emptyAiTally = (): AiTally => ({
  embeddings: 0,
  generations: 0,
  reranks: 0,
  failures: 0,
  rateLimited: 0,
  dailyAllocation: 0,
  lastLimitAt: null,
});

/** One call's figures. */
export interface UsageDelta {
  d1RowsRead: number;
  d1RowsWritten: number;
  ai: AiTally;
}

/** One UTC day's figures for one user. */
export interface DailyUsage extends AiTally {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  d1RowsRead: number;
  d1RowsWritten: number;
}

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The next 00:00 UTC after `ms`, when every daily allowance resets. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

const zero = (day: string): DailyUsage => ({ day, d1RowsRead: 0, d1RowsWritten: 0, ...emptyAiTally() });

/** The record for `now`'s day: `stored` when it is today's, a zero record when it is another day's or absent. */
export function usageToday(stored: DailyUsage | null | undefined, now: number): DailyUsage {
  const day = utcDay(now);
  return stored && stored.day === day ? stored : zero(day);
}

/** True when a call spent nothing worth a write. */
export function isEmptyDelta(d: UsageDelta): boolean {
  const a = d.ai;
  return d.d1RowsRead + d.d1RowsWritten + a.embeddings + a.generations + a.reranks + a.failures === 0;
}

/** Today's record with one call's figures added (a record of an earlier day starts afresh). */
export function addUsage(stored: DailyUsage | null | undefined, delta: UsageDelta, now: number): DailyUsage {
  const u = usageToday(stored, now);
  const a = delta.ai;
  return {
    day: u.day,
    d1RowsRead: u.d1RowsRead + delta.d1RowsRead,
    d1RowsWritten: u.d1RowsWritten + delta.d1RowsWritten,
    embeddings: u.embeddings + a.embeddings,
    generations: u.generations + a.generations,
    reranks: u.reranks + a.reranks,
    failures: u.failures + a.failures,
    rateLimited: u.rateLimited + a.rateLimited,
    dailyAllocation: u.dailyAllocation + a.dailyAllocation,
    lastLimitAt: a.lastLimitAt ?? u.lastLimitAt,
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * What memory_stats shows of today's usage: this memory's figures, and Workers Free's daily allowances
 * beside them (empty on other plans). The allowances are the account's, shared with every other user
 * and Worker of it: this memory's figures are its share, not the account's total.
 */
export function dailyUsageView(stored: DailyUsage | null | undefined, limits: PlatformLimits, now: number) {
  const u = usageToday(stored, now);
  const allowances = dailyAllowances(limits);
  return {
    day: u.day,
    used: {
      d1_rows_read: u.d1RowsRead,
      d1_rows_written: u.d1RowsWritten,
      ai_embeddings: u.embeddings,
      ai_generations: u.generations,
      ai_reranks: u.reranks,
      ai_failures: u.failures,
      ai_rate_limited: u.rateLimited,
      ai_allocation_spent: u.dailyAllocation,
    },
    free_allowances: (allowances
      ? {
          d1_rows_read: allowances.d1_rows_read,
          d1_rows_written: allowances.d1_rows_written,
          ai_neurons: allowances.workers_ai_neurons,
        }
      : {}) as Partial<Record<"d1_rows_read" | "d1_rows_written" | "ai_neurons", number>>,
    last_limit_at: iso(u.lastLimitAt),
  };
}

export type DailyUsageView = ReturnType<typeof dailyUsageView>;
