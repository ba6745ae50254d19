/**
 * @module storage/accounts/d1-client-registrations
 * How many OAuth clients each client address registered on each UTC day (migration 0013). A
 * registration takes a place with one upsert that checks and counts at once, so parallel requests
 * never read the same count (KV's read-then-write let them, and KV reads may be a minute stale at an
 * edge location); a registration the OAuth library then refuses gives its place back. Each take also
 * deletes a bounded number of rows of days before yesterday, so the table holds about two days.
 */

/** Rows of old days one registration deletes: more than the one row it may add. */
const CLEANUP_ROWS = 100;

export class D1ClientRegistrations {
  constructor(private readonly db: D1Database) {}

  /** Counts one registration for `address` on `day`; false (nothing counted) when it already has `max`. */
  async take(address: string, day: string, oldestKept: string, max: number): Promise<boolean> {
    const [, taken] = await this.db.batch([
      this.db
        .prepare(
          "DELETE FROM client_registrations WHERE rowid IN (SELECT rowid FROM client_registrations WHERE day < ? LIMIT ?)",
        )
        .bind(oldestKept, CLEANUP_ROWS),
      this.db
        .prepare(
          "INSERT INTO client_registrations (address, day, count) VALUES (?, ?, 1) ON CONFLICT (address, day) DO UPDATE SET count = count + 1 WHERE count < ? RETURNING count",
        )
        .bind(address, day, max),
    ]);
    return (taken.results?.length ?? 0) > 0;
  }

  /** Gives back a place `take` counted, for a registration that did not happen. */
  async giveBack(address: string, day: string): Promise<void> {
    await this.db
      .prepare("UPDATE client_registrations SET count = count - 1 WHERE address = ? AND day = ? AND count > 0")
      .bind(address, day)
      .run();
  }
}
