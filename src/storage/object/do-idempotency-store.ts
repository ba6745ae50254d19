/**
 * @module storage/object/do-idempotency-store
 * IdempotencyStore in the user's Durable Object SQLite: first answers kept 24 h per key.
 */
import type { IdempotencyStore } from "../../memory/ports";

export class DoIdempotencyStore implements IdempotencyStore {
  constructor(private readonly sqlStorage: SqlStorage) {
    sqlStorage.exec(
      "CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, answer TEXT NOT NULL, at INTEGER NOT NULL)",
    );
  }

  async get(key: string, notBefore: number): Promise<unknown | null> {
    const row = this.sqlStorage
      .exec<{ answer: string }>("SELECT answer FROM idempotency WHERE key = ? AND at >= ?", key, notBefore)
      .toArray()[0];
    return row ? (JSON.parse(row.answer) as unknown) : null;
  }

  async put(key: string, value: unknown, now: number): Promise<void> {
    this.sqlStorage.exec(
      "INSERT OR REPLACE INTO idempotency (key, answer, at) VALUES (?, ?, ?)",
      key,
      JSON.stringify(value),
      now,
    );
    this.sqlStorage.exec("DELETE FROM idempotency WHERE at < ?", now - 48 * 3600_000);
  }
}
