/**
 * @module timing/request-timing
 * Per-request server timings: phase durations (index, rank, …), D1 usage (queries, sequential
 * round trips, time with a query in flight, rows read and written) and the rows the Durable Object's
 * own SQLite read and wrote (what its storage bills). One RequestTiming lives for one request in the Worker
 * and one per RPC call in the Durable Object; an AsyncLocalStorage finds the current one, so the
 * D1 meter and the domain's phase timer need no extra arguments. The object's figures travel back
 * to the Worker with the RPC result (`TimingSnapshot`) and end in the Server-Timing header.
 *
 * Deployed, Workers' clocks advance only across I/O (a Spectre mitigation): D1 and RPC durations are
 * real there, pure CPU phases read 0. Locally (wrangler dev, tests) every phase is measured.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Phases the domain reports (memory/ports.ts PhaseTimer). */
export const PHASES = ["index", "rank"] as const;
export type Phase = (typeof PHASES)[number];

/** What the Durable Object returns with every RPC result; plain data, so it crosses RPC. */
export interface TimingSnapshot {
  /** Milliseconds per phase. */
  phases: Partial<Record<Phase, number>>;
  /** D1 statements run (a batch counts each of its statements). */
  d1Queries: number;
  /** D1 round trips one after another: a batch is one; queries awaited together count once. */
  d1Sequential: number;
  /** Milliseconds with at least one D1 call in flight. */
  d1Ms: number;
  /** Rows D1 read and wrote, as its result metadata counts them (`meta.rows_read` / `rows_written`: what D1 bills). */
  d1RowsRead: number;
  d1RowsWritten: number;
  /**
   * Milliseconds D1 says it spent executing the statements (`meta.timings.sql_duration_ms`, else
   * `meta.duration`): SQLite's own time, without the network or the binding's result handling,
   * which `d1Ms` includes.
   */
  d1SqlMs: number;
  /**
   * Rows the Durable Object's own SQLite read and wrote through its SQL API (each cursor's
   * `rowsRead` / `rowsWritten`: what SQLite-backed Durable Object storage bills; storage/object/metered-sql-storage.ts).
   */
  doSqlRowsRead: number;
  doSqlRowsWritten: number;
}

export const emptySnapshot = (): TimingSnapshot => ({
  phases: {},
  d1Queries: 0,
  d1Sequential: 0,
  d1Ms: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  d1SqlMs: 0,
  doSqlRowsRead: 0,
  doSqlRowsWritten: 0,
});

/** How the Worker authenticated the request: a cached key, a D1 lookup, or an OAuth token. */
export type AuthSource = "cache" | "d1" | "oauth" | "none";

/** Two RPC calls' figures as one (a tool that calls the object twice). */
export function addSnapshots(a: TimingSnapshot, b: TimingSnapshot): TimingSnapshot {
  const sum = new RequestTiming();
  sum.merge(a);
  sum.merge(b);
  return sum.snapshot();
}

/** The Durable Object SQL cursors one recorder holds before it adds up the older half. */
const CURSORS_HELD = 64;

export class RequestTiming {
  /** Worker side: authentication, and time spent waiting on the Durable Object. */
  auth: { ms: number; source: AuthSource } = { ms: 0, source: "none" };
  doMs = 0;
  private readonly phases: Partial<Record<Phase, number>> = {};
  private d1Queries = 0;
  private d1Sequential = 0;
  private d1Ms = 0;
  private d1RowsRead = 0;
  private d1RowsWritten = 0;
  private d1SqlMs = 0;
  private doSqlRowsRead = 0;
  private doSqlRowsWritten = 0;
  /** The object's SQL cursors of this call: their counts grow as their rows are read, so they are summed at the end. */
  private readonly cursors: Pick<SqlStorageCursor<Record<string, SqlStorageValue>>, "rowsRead" | "rowsWritten">[] = [];
  private inFlight = 0;
  private busySince = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A D1 call of `statements` statements starts; call the returned function when it settles. */
  d1Begin(statements: number): () => void {
    this.d1Queries += statements;
    // A call that starts while another is in flight shares its round trip (Promise.all).
    if (this.inFlight++ === 0) {
      this.d1Sequential++;
      this.busySince = this.now();
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.inFlight === 0) this.d1Ms += this.now() - this.busySince;
    };
  }

  /** Rows one D1 statement read and wrote, and the time D1 spent executing it (its result's meta). */
  d1Rows(read: number, written: number, sqlMs = 0): void {
    this.d1RowsRead += read;
    this.d1RowsWritten += written;
    this.d1SqlMs += sqlMs;
  }

  /**
   * One statement of the Durable Object's SQLite: its rows are counted when the snapshot is taken (a
   * cursor's counts grow as it is read). A call of many statements (a bulk import's vectors) keeps only
   * the latest CURSORS_HELD: older ones, long read by then, are added up and let go.
   */
  doSqlCursor(cursor: Pick<SqlStorageCursor<Record<string, SqlStorageValue>>, "rowsRead" | "rowsWritten">): void {
    if (this.cursors.length >= CURSORS_HELD) {
      for (const old of this.cursors.splice(0, CURSORS_HELD / 2)) {
        this.doSqlRowsRead += old.rowsRead;
        this.doSqlRowsWritten += old.rowsWritten;
      }
    }
    this.cursors.push(cursor);
  }

  addPhase(phase: Phase, ms: number): void {
    this.phases[phase] = (this.phases[phase] ?? 0) + ms;
  }

  /** One RPC to the Durable Object: its wall time here and what it measured inside. */
  addDurableObjectCall(ms: number, inside: TimingSnapshot): void {
    this.doMs += ms;
    this.merge(inside);
  }

  /** Adds what another recorder measured (the Durable Object's, after an RPC). */
  merge(other: TimingSnapshot): void {
    for (const phase of PHASES) {
      const ms = other.phases[phase];
      if (ms !== undefined) this.addPhase(phase, ms);
    }
    this.d1Queries += other.d1Queries;
    this.d1Sequential += other.d1Sequential;
    this.d1Ms += other.d1Ms;
    this.d1Rows(other.d1RowsRead, other.d1RowsWritten, other.d1SqlMs ?? 0);
    this.doSqlRowsRead += other.doSqlRowsRead ?? 0;
    this.doSqlRowsWritten += other.doSqlRowsWritten ?? 0;
  }

  snapshot(): TimingSnapshot {
    return {
      phases: { ...this.phases },
      d1Queries: this.d1Queries,
      d1Sequential: this.d1Sequential,
      d1Ms: this.d1Ms,
      d1RowsRead: this.d1RowsRead,
      d1RowsWritten: this.d1RowsWritten,
      d1SqlMs: this.d1SqlMs,
      doSqlRowsRead: this.doSqlRowsRead + this.cursors.reduce((n, c) => n + c.rowsRead, 0),
      doSqlRowsWritten: this.doSqlRowsWritten + this.cursors.reduce((n, c) => n + c.rowsWritten, 0),
    };
  }
}

const store = new AsyncLocalStorage<RequestTiming>();

/** Runs `work` with `timing` as the current request's recorder. */
export function runTimed<T>(timing: RequestTiming, work: () => T): T {
  return store.run(timing, work);
}

/** The current request's recorder, if any (background work after a response has none that matters). */
export function currentTiming(): RequestTiming | undefined {
  return store.getStore();
}

/** Times `work` as `phase` of the current request. */
export async function timePhase<T>(phase: Phase, work: () => Promise<T> | T): Promise<T> {
  const timing = currentTiming();
  if (!timing) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    timing.addPhase(phase, performance.now() - started);
  }
}
