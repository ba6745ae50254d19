/**
 * A Durable Object SqlStorage that refuses what the deployed one refuses and the local one lets
 * through: any value read (string or BLOB) or result row over `maxBytes` (DO SQLite's 2 MB). Each
 * SELECT is run once to measure what it returns, then again for the caller, so the caller's cursor
 * is untouched. Reads only: what the code under test writes is its own business.
 */
import { DO_SQLITE_MAX_VALUE_BYTES } from "../../src/storage/object/do-sqlite-limits";

const utf8 = new TextEncoder();

function valueBytes(value: SqlStorageValue): number {
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (typeof value === "string") return utf8.encode(value).byteLength;
  return 8;
}

export interface ValueLimitedSql {
  sql: SqlStorage;
  /** The largest single value and the largest row any SELECT returned, in bytes. */
  largest: { value: number; row: number };
}

export function valueLimitedSql(inner: SqlStorage, maxBytes = DO_SQLITE_MAX_VALUE_BYTES): ValueLimitedSql {
  const largest = { value: 0, row: 0 };
  const exec: SqlStorage["exec"] = (query, ...bindings) => {
    if (query.trimStart().toUpperCase().startsWith("SELECT")) {
      for (const row of inner.exec(query, ...bindings).raw()) {
        let rowBytes = 0;
        for (const value of row) {
          const bytes = valueBytes(value);
          rowBytes += bytes;
          largest.value = Math.max(largest.value, bytes);
          if (bytes > maxBytes) throw new Error(`string or BLOB too big: ${bytes} bytes > ${maxBytes} (SQLITE_TOOBIG)`);
        }
        largest.row = Math.max(largest.row, rowBytes);
        if (rowBytes > maxBytes) throw new Error(`row too big: ${rowBytes} bytes > ${maxBytes} (SQLITE_TOOBIG)`);
      }
    }
    return inner.exec(query, ...bindings);
  };
  const sql: SqlStorage = {
    exec,
    get databaseSize() {
      return inner.databaseSize;
    },
    Cursor: inner.Cursor,
    Statement: inner.Statement,
  };
  return { sql, largest };
}
