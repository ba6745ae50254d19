/**
 * @module platform-limits/kv-daily-limits
 * Workers KV's refusal once a Workers Free account has made its 1,000 writes (or deletes, or lists) of
 * the day (KV limits page, developers.cloudflare.com/kv/platform/limits/, read 2026-12-05: "Writes to
 * different keys: 1,000 writes per day"; reset at 00:00 UTC), turned into a `quota_exceeded` naming the
 * limit and its reset. KV's binding rejects with "KV put() limit exceeded for the day." (likewise
 * `delete()` and `list()`): Cloudflare's pages give the limit but not the words, which are quoted from
 * deployments that met it (e.g. GitHub koala73/worldmonitor, Ikalus1988/MisakaNet, both 2026), so the
 * common tail is matched, by plain substring (no regex over error text). OAUTH_KV holds OAuth grants
 * and tokens only: API keys (checked in D1) never touch it.
 */
import { MemoryError } from "../memory/errors";

/** The tail every KV daily-limit refusal shares ("KV put() limit exceeded for the day."). */
export const KV_DAILY_LIMIT_TEXT = "limit exceeded for the day";

/** The field a KV daily-limit error names. */
export const KV_DAILY_LIMIT_FIELD = "kv_writes_per_day";

/** The `quota_exceeded` for KV's daily-limit refusal, or null for any other error. */
export function kvDailyLimitError(err: unknown): MemoryError | null {
  const message = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  if (!message.slice(0, 300).includes(KV_DAILY_LIMIT_TEXT)) return null;
  return new MemoryError(
    "quota_exceeded",
    "Workers Free's KV limit of 1,000 writes a day is reached: OAuth sign-in and token refresh are refused until 00:00 UTC (nothing stored is lost); clients using an API key go on, and Workers Paid lifts it",
    KV_DAILY_LIMIT_FIELD,
  );
}
