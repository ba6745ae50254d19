/**
 * @module storage/metered-d1
 * A D1Database that counts what goes to D1 for the current request (timing/request-timing.ts):
 * statements, sequential round trips and time in flight. Deployed, every D1 call from a Durable
 * Object is a network round trip, so these counts are what a user feels; the repositories run on
 * this wrapper and do not know it is there. A batch is one round trip of n statements.
 */
import { currentTiming } from "../timing/request-timing";

type Begin = (statements: number) => () => void;

const meterOfCurrentRequest: Begin = (statements) => currentTiming()?.d1Begin(statements) ?? (() => undefined);

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
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new MeteredStatement(this.inner.bind(...values), this.begin);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return metered(this.begin, 1, () => (colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName)));
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return metered(this.begin, 1, () => this.inner.run<T>());
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return metered(this.begin, 1, () => this.inner.all<T>());
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    if (options?.columnNames) return metered(this.begin, 1, () => this.inner.raw<T>({ columnNames: true }));
    return metered(this.begin, 1, () => this.inner.raw<T>());
  }
}

const unwrap = (s: D1PreparedStatement) => (s instanceof MeteredStatement ? s.inner : s);

class MeteredSession implements D1DatabaseSession {
  constructor(
    private readonly inner: D1DatabaseSession,
    private readonly begin: Begin,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.begin);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return metered(this.begin, statements.length, () => this.inner.batch<T>(statements.map(unwrap)));
  }

  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

export class MeteredD1 implements D1Database {
  constructor(
    private readonly inner: D1Database,
    private readonly begin: Begin = meterOfCurrentRequest,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new MeteredStatement(this.inner.prepare(query), this.begin);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return metered(this.begin, statements.length, () => this.inner.batch<T>(statements.map(unwrap)));
  }

  exec(query: string): Promise<D1ExecResult> {
    return metered(this.begin, 1, () => this.inner.exec(query));
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new MeteredSession(this.inner.withSession(constraintOrBookmark), this.begin);
  }

  dump(): Promise<ArrayBuffer> {
    return metered(this.begin, 1, () => this.inner.dump());
  }
}
