/**
 * @module storage/object/metered-sql-storage
 * The Durable Object's SQLite (`ctx.storage.sql`) counting, for the current call, the rows each
 * statement read and wrote (each cursor's `rowsRead` / `rowsWritten`, what SQLite-backed Durable
 * Object storage bills: Durable Objects pricing, "SQLite storage backend", read 2026-12-05). The
 * stores on it do not know it is there; the counts end in Server-Timing (`do-sql-rows-read`,
 * `do-sql-rows-written`) and in `npm run bench:cpu -- --requests`, which `npm run cost` takes.
 */
import { currentTiming } from "../../timing/request-timing";

/** `sql` whose statements are counted for the current call's recorder (timing/request-timing.ts). */
export function meteredSqlStorage(sql: SqlStorage): SqlStorage {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === "exec")
        return (query: string, ...bindings: unknown[]) => {
          const cursor = target.exec(query, ...bindings);
          currentTiming()?.doSqlCursor(cursor);
          return cursor;
        };
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
