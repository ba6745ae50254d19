/**
 * @module platform-limits/d1-daily-limits
 * D1's own refusal once a Workers Free account has read 5,000,000 or written 100,000 rows in a day
 * (enforced since 2026-09-01; the error texts are the D1 changelog's "D1 enforces free tier daily
 * query limits"), turned into a `quota_exceeded` that says which limit, when it resets and how to lift
 * it, instead of an internal error. Matched by plain substring (no regex over error text).
 */
import { MemoryError } from "../memory/errors";

const DAILY = [
  {
    text: "exceeded D1's free tier daily row read limit",
    field: "d1_rows_read_per_day",
    sentence: "Workers Free's D1 limit of 5,000,000 rows read a day is reached",
  },
  {
    text: "exceeded D1's free tier daily row write limit",
    field: "d1_rows_written_per_day",
    sentence: "Workers Free's D1 limit of 100,000 rows written a day is reached",
  },
] as const;

/** The `quota_exceeded` for D1's daily-limit refusal, or null for any other error. */
export function d1DailyLimitError(err: unknown): MemoryError | null {
  const message = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  const hit = DAILY.find((d) => message.includes(d.text));
  return hit
    ? new MemoryError(
        "quota_exceeded",
        `${hit.sentence}: D1 refuses queries until 00:00 UTC (nothing stored is lost); Workers Paid lifts it`,
        hit.field,
      )
    : null;
}

/** `work`, with D1's daily-limit refusal rethrown as its `quota_exceeded`. */
export async function withDailyLimits<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw d1DailyLimitError(err) ?? err;
  }
}
