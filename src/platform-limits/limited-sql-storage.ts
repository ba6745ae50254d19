/**
 * @module platform-limits/limited-sql-storage
 * The Durable Object's SQLite (`ctx.storage.sql`) refusing what a deployed SQLite-backed Durable
 * Object refuses: SQL text over 100 KB, more than 100 bound parameters, a bound or returned string
 * or BLOB over 2 MB, a returned row over 2 MB ("SQL storage limits" of the Durable Objects limits
 * page). A statement is checked before it runs, so a refused one changes nothing; returned rows are
 * checked as they are read.
 */
import { checkRows, checkStatement } from "./limited-d1";
import { enforced, type PlatformLimits } from "./platform-limits";

/** Rows of a cursor, each checked against the value limit when it is read. */
function checkedCursor<T extends Record<string, SqlStorageValue>>(
  cursor: SqlStorageCursor<T>,
  limits: PlatformLimits,
): SqlStorageCursor<T> {
  const check = (row: T) => {
    checkRows(limits, "do_sql_value_bytes", [row]);
    return row;
  };
  return new Proxy(cursor, {
    get(target, prop, receiver) {
      if (prop === "toArray") return () => target.toArray().map(check);
      if (prop === "one") return () => check(target.one());
      if (prop === "next")
        return () => {
          const r = target.next();
          if (!r.done) check(r.value as T);
          return r;
        };
      if (prop === Symbol.iterator) return () => receiver;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** `sql` with the platform's limits; the same object when limits are off. */
export function limitedSqlStorage(sql: SqlStorage, limits: PlatformLimits): SqlStorage {
  if (!enforced(limits)) return sql;
  return new Proxy(sql, {
    get(target, prop) {
      if (prop === "exec")
        return <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]) => {
          checkStatement(limits, "do_sql_value_bytes", query, bindings);
          return checkedCursor(target.exec<T>(query, ...bindings), limits);
        };
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
