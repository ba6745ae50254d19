/**
 * @module storage/object/do-session-counters
 * SessionCounterStore in the user's Durable Object SQLite: counters survive an object evicted
 * between two calls of a session; sessions idle past the reset window are forgotten.
 */
import type { SessionCounter, SessionCounterStore } from "../../memory/ports";

export class DoSessionCounters implements SessionCounterStore {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS session_counters (key TEXT PRIMARY KEY, calls INTEGER NOT NULL, last_at INTEGER NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS session_counters_last_at ON session_counters (last_at)");
  }

  advance(
    key: string,
    next: (previous: SessionCounter | undefined) => SessionCounter,
    idleSince: number,
  ): SessionCounter {
    const row = this.sql
      .exec<{ calls: number; last_at: number }>("SELECT calls, last_at FROM session_counters WHERE key = ?", key)
      .toArray()[0];
    const counter = next(row ? { calls: row.calls, lastAt: row.last_at } : undefined);
    this.sql.exec(
      "INSERT OR REPLACE INTO session_counters (key, calls, last_at) VALUES (?, ?, ?)",
      key,
      counter.calls,
      counter.lastAt,
    );
    this.sql.exec("DELETE FROM session_counters WHERE last_at <= ? AND key <> ?", idleSince, key);
    return counter;
  }
}
