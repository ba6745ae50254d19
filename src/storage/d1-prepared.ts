/**
 * @module storage/d1-prepared
 * A drizzle query as a D1 prepared statement: drizzle builds the SQL, a raw D1 batch runs it, so it
 * shares one transaction with hand-written statements (FTS rows, guarded events).
 */

/** `query`'s SQL and parameters, prepared on `d1` (not run). */
export function prepared(d1: D1Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql, params } = query.toSQL();
  return d1.prepare(sql).bind(...params);
}
