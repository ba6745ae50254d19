/**
 * @module storage/metered-d1
 * A D1Database that counts what goes to D1 for the current request (timing/request-timing.ts):
 * statements, sequential round trips and time in flight. Deployed, every D1 call from a Durable
 * Object is a network round trip, so these counts are what a user feels; the repositories run on
 * this wrapper and do not know it is there. A batch is one round trip of n statements.
 *
 * It also adds up the rows D1 says each statement read and wrote (`meta.rows_read` /
 * `meta.rows_written`, what D1 bills) and the time D1 says it spent executing them
 * (`meta.timings.sql_duration_ms`, Server-Timing `d1-sql`). D1 hands that meta only with object rows (`all`, `run`,
 * `batch`), so `first` and `raw` are served from `all()`: the same query and the same round trip
 * (D1's own `first` fetches every row and keeps the first), with a raw row being the object's values
 * in column order, as drizzle maps D1's batch results (`d1ToRawMapping`). `raw({ columnNames })`,
 * which only scripts use, and `exec` carry no meta and add no rows.
 */
import { currentTiming } from "../timing/request-timing";

type Begin = (statements: number) => () => void;

const meterOfCurrentRequest: Begin = (statements) => currentTiming()?.d1Begin(statements) ?? (() => undefined);

/** Takes the rows one D1 result says it read and wrote, and the time it says the statement ran. */
type CountRows = (meta: Pick<D1Meta, "rows_read" | "rows_written" | "duration" | "timings">) => void;

/** D1's own execution time of one statement: `timings.sql_duration_ms` where D1 gives it, else `duration`. */
export const sqlMsOf = (meta: Pick<D1Meta, "duration" | "timings">): number => {
  const ms = meta.timings?.sql_duration_ms ?? meta.duration;
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? ms : 0;
};

const rowsOfCurrentRequest: CountRows = (meta) =>
  currentTiming()?.d1Rows(meta.rows_read ?? 0, meta.rows_written ?? 0, sqlMsOf(meta));

async function metered<T>(begin: Begin, statements: number, call: () => Promise<T>): Promise<T> {
  const end = begin(statements);
  try {
    return await call();
  } finally {
    end();
  }
}

/** A prepared statement whose executions are metered; `inner` is what a batch hands to D1. */
export class MeteredStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    private readonly begin: Begin,
    private readonly countRows: CountRows = rowsOfCurrentRequest,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.begin, this.countRows);
  }

  /** `all()` of the inner statement, its rows read and written counted. */
  private async counted<T>(run: () => Promise<D1Result<T>>): Promise<D1Result<T>> {
    const result = await run();
    this.countRows(result.meta);
    return result;
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return metered(this.begin, 1, async () => {
      const row = (await this.counted(() => this.inner.all<Record<string, unknown>>())).results[0];
      if (row === undefined) return null;
      return (colName === undefined ? row : (row[colName] ?? null)) as T | null;
    });
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return metered(this.begin, 1, () => this.counted(() => this.inner.run<T>()));
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return metered(this.begin, 1, () => this.counted(() => this.inner.all<T>()));
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    if (options?.columnNames) return metered(this.begin, 1, () => this.inner.raw<T>({ columnNames: true }));
    return metered(this.begin, 1, async () => {
      const { results } = await this.counted(() => this.inner.all<Record<string, unknown>>());
      return results.map((row) => Object.values(row) as T);
    });
  }
}

/** Counts the rows of every result of a batch. */
async function countedBatch<T>(count: CountRows, run: () => Promise<D1Result<T>[]>): Promise<D1Result<T>[]> {
  const results = await run();
  for (const r of results) count(r.meta);
  return results;
}

const unwrap = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.inner : s);

class MeteredSession implements D1DatabaseSession {
  constructor(
    private readonly inner: D1DatabaseSession,
    private readonly begin: Begin,
    private readonly countRows: CountRows,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.begin, this.countRows);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return metered(this.begin, statements.length, () =>
      countedBatch(this.countRows, () => this.inner.batch<T>(statements.map(unwrap))),
    );
  }

  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

export class MeteredD1 implements D1Database {
  constructor(
    private readonly inner: D1Database,
    private readonly begin: Begin = meterOfCurrentRequest,
    private readonly countRows: CountRows = rowsOfCurrentRequest,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.begin, this.countRows);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return metered(this.begin, statements.length, () =>
      countedBatch(this.countRows, () => this.inner.batch<T>(statements.map(unwrap))),
    );
  }

  exec(query: string): Promise<D1ExecResult> {
    return metered(this.begin, 1, () => this.inner.exec(query));
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new MeteredSession(this.inner.withSession(constraintOrBookmark), this.begin, this.countRows);
  }

  dump(): Promise<ArrayBuffer> {
    return metered(this.begin, 1, () => this.inner.dump());
  }
}
