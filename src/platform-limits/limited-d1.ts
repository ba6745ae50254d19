/**
 * @module platform-limits/limited-d1
 * A D1Database that refuses what D1 refuses, before the statement leaves: more statements in one
 * invocation than "Queries per Worker invocation" (every statement of a batch counts, the stricter
 * reading of the limits page; a batch is one subrequest), more bound parameters than 100, SQL text
 * over 100 KB, a bound or returned string or BLOB over 2 MB, a returned row over 2 MB. A batch is
 * checked whole before it is sent, so a refused batch writes nothing. Counts go to the current
 * invocation's budget (invocation-budget.ts); with none (a test calling D1 outside any invocation)
 * only the per-statement limits apply. D1's refusal past Workers Free's daily rows read or written
 * becomes a `quota_exceeded` naming the limit (d1-daily-limits.ts).
 */
import { withDailyLimits } from "./d1-daily-limits";
import { currentInvocation, type InvocationBudget, limitExceeded } from "./invocation-budget";
import { enforced, type PlatformLimits } from "./platform-limits";

const encoder = new TextEncoder();
/** UTF-8 bytes of a string; counted exactly only when its UTF-16 length could put it over `max`. */
const utf8Bytes = (s: string, max = 0) => (s.length * 3 <= max ? s.length : encoder.encode(s).byteLength);

/** Bytes of one SQL value as SQLite stores it (text as UTF-8, a BLOB as its bytes); exact above `max`. */
export function valueBytes(value: unknown, max = 0): number {
  if (typeof value === "string") return utf8Bytes(value, max);
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  // D1 hands a BLOB back as an array of byte values.
  if (Array.isArray(value)) return value.length;
  return 8;
}

/** Per-statement checks shared with the Durable Object's SQLite (limited-sql-storage.ts). */
export function checkStatement(
  limits: PlatformLimits,
  valueLimit: keyof PlatformLimits,
  sql: string,
  values: unknown[],
) {
  if (!enforced(limits)) return;
  const sqlBytes = utf8Bytes(sql, limits.sql_statement_bytes);
  if (sqlBytes > limits.sql_statement_bytes)
    throw limitExceeded(limits, "sql_statement_bytes", `a statement of ${sqlBytes} bytes`);
  if (values.length > limits.bound_parameters_per_statement)
    throw limitExceeded(limits, "bound_parameters_per_statement", `a statement binding ${values.length} values`);
  const max = limits[valueLimit] as number;
  for (const value of values) {
    const bytes = valueBytes(value, max);
    if (bytes > max) throw limitExceeded(limits, valueLimit, `a bound value of ${bytes} bytes`);
  }
}

/** Returned rows: no value, and no row, over the value limit (SQLite builds a result row whole). */
export function checkRows(limits: PlatformLimits, valueLimit: keyof PlatformLimits, rows: Iterable<unknown>): void {
  if (!enforced(limits)) return;
  const max = limits[valueLimit] as number;
  for (const row of rows) {
    if (row === null || typeof row !== "object") continue;
    const values = Object.values(row);
    // Three bytes per UTF-16 unit bounds UTF-8 from above: count exactly only a row that could be over.
    if (values.reduce<number>((n, v) => n + (typeof v === "string" ? v.length * 3 : valueBytes(v)), 0) <= max) continue;
    const total = values.reduce<number>((n, v) => n + valueBytes(v), 0);
    if (total > max) throw limitExceeded(limits, valueLimit, `a result row of ${total} bytes`);
  }
}

type Budget = () => InvocationBudget | undefined;

class LimitedStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    readonly values: unknown[],
    private readonly limits: PlatformLimits,
    private readonly budget: Budget,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new LimitedStatement(this.inner.bind(...values), this.sql, values, this.limits, this.budget);
  }

  private async exec<T>(call: () => Promise<T>, rows: (r: T) => Iterable<unknown>): Promise<T> {
    checkStatement(this.limits, "d1_value_bytes", this.sql, this.values);
    spend(this.budget(), 1);
    const result = await withDailyLimits(call);
    checkRows(this.limits, "d1_value_bytes", rows(result));
    return result;
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return this.exec(
      () => (colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName)),
      (r) => (colName === undefined && r !== null ? [r] : [{ value: r }]),
    );
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.exec(
      () => this.inner.run<T>(),
      (r) => r.results ?? [],
    );
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.exec(
      () => this.inner.all<T>(),
      (r) => r.results,
    );
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    if (options?.columnNames)
      return this.exec(
        () => this.inner.raw<T>({ columnNames: true }),
        (r) => r.slice(1),
      );
    return this.exec(
      () => this.inner.raw<T>(),
      (r) => r,
    );
  }
}

function spend(budget: InvocationBudget | undefined, statements: number): void {
  if (!budget) return;
  const what = statements === 1 ? "one more D1 statement" : `a D1 batch of ${statements} statements`;
  budget.take("d1_queries_per_invocation", statements, what);
  budget.take("subrequests_per_invocation", 1, "one more D1 call");
}

function checkedBatch(limits: PlatformLimits, budget: Budget, statements: D1PreparedStatement[]) {
  for (const s of statements)
    if (s instanceof LimitedStatement) checkStatement(limits, "d1_value_bytes", s.sql, s.values);
  spend(budget(), statements.length);
  return statements.map((s) => (s instanceof LimitedStatement ? s.inner : s));
}

async function limitedBatch<T>(
  limits: PlatformLimits,
  budget: Budget,
  statements: D1PreparedStatement[],
  send: (s: D1PreparedStatement[]) => Promise<D1Result<T>[]>,
): Promise<D1Result<T>[]> {
  const checked = checkedBatch(limits, budget, statements);
  const results = await withDailyLimits(() => send(checked));
  for (const r of results) checkRows(limits, "d1_value_bytes", r.results ?? []);
  return results;
}

class LimitedSession implements D1DatabaseSession {
  constructor(
    private readonly inner: D1DatabaseSession,
    private readonly limits: PlatformLimits,
    private readonly budget: Budget,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new LimitedStatement(this.inner.prepare(query), query, [], this.limits, this.budget);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return limitedBatch(this.limits, this.budget, statements, (s) => this.inner.batch<T>(s));
  }

  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

export class LimitedD1 implements D1Database {
  constructor(
    private readonly inner: D1Database,
    private readonly limits: PlatformLimits,
    private readonly budget: Budget = currentInvocation,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new LimitedStatement(this.inner.prepare(query), query, [], this.limits, this.budget);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return limitedBatch(this.limits, this.budget, statements, (s) => this.inner.batch<T>(s));
  }

  exec(query: string): Promise<D1ExecResult> {
    checkStatement(this.limits, "d1_value_bytes", query, []);
    spend(this.budget(), query.split(";").filter((q) => q.trim() !== "").length || 1);
    return withDailyLimits(() => this.inner.exec(query));
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new LimitedSession(this.inner.withSession(constraintOrBookmark), this.limits, this.budget);
  }

  dump(): Promise<ArrayBuffer> {
    spend(this.budget(), 1);
    return this.inner.dump();
  }
}
