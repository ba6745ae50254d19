/**
 * @module durable/daily-usage-record
 * The user's usage of today (UTC), kept in the Durable Object's own storage: read once per object
 * life, held in memory, and written back once at the end of each call that spent something — one
 * key-value put, one row written to the object's SQLite (of Free's 100,000 a day; Durable Objects
 * pricing, "SQLite storage backend", read 2026-12-05), never a D1 write. A day's record is replaced by
 * the next day's on its first call. Recording never fails the call it records.
 */
import { consoleLogger } from "../console-logger";
import { addUsage, type DailyUsage, isEmptyDelta, type UsageDelta, usageToday } from "../platform-limits/daily-usage";

/** The storage key of the day's record. */
export const DAILY_USAGE_KEY = "daily-usage";

type UsageStorage = Pick<DurableObjectStorage, "get" | "put">;

export class DailyUsageRecord {
  private loaded = false;
  private current: DailyUsage | null = null;

  constructor(private readonly storage: UsageStorage) {}

  private async load(): Promise<void> {
    if (this.loaded) return;
    this.current = (await this.storage.get<DailyUsage>(DAILY_USAGE_KEY)) ?? null;
    this.loaded = true;
  }

  /** Adds one call's figures (nothing when it spent nothing) and writes the day's record back. */
  async add(delta: UsageDelta, now: number): Promise<void> {
    if (isEmptyDelta(delta)) return;
    try {
      await this.load();
      this.current = addUsage(this.current, delta, now);
      await this.storage.put(DAILY_USAGE_KEY, this.current);
    } catch (err) {
      consoleLogger.warn("daily usage not recorded", { error: String(err) });
    }
  }

  /** Today's figures (zero on a new day). */
  async today(now: number): Promise<DailyUsage> {
    await this.load();
    return usageToday(this.current, now);
  }
}
