/**
 * @module scripts/lib/bench-server-figures
 * The server's side of a benchmark's calls, from their Server-Timing headers: p50/p95 of the
 * server's own total and the D1 statements, sequential round trips and rows read and written per call.
 */
import { percentile } from "./bench-metrics.ts";
import type { ServerTiming } from "./server-timing.ts";

export interface ServerSummary {
  /** Calls that carried a Server-Timing header. */
  calls: number;
  p50: number;
  p95: number;
  /** Mean and worst D1 round trips one after another per call. */
  d1SequentialMean: number;
  d1SequentialMax: number;
  d1QueriesMean: number;
  /** Mean and worst rows D1 read per call, and mean rows written (null: the server does not report them). */
  d1RowsReadMean: number | null;
  d1RowsReadMax: number | null;
  d1RowsWrittenMean: number | null;
  /** p50 / p95 of the phases inside a call (ms): D1 in flight, D1's own execution time, the vector index. */
  phases: Record<(typeof PHASES)[number], { p50: number; p95: number }>;
}

/** The Server-Timing phases summarised beside the total: `d1-sql` is D1's own time, `d1` minus it the binding's. */
const PHASES = ["do", "d1", "d1-sql", "index"] as const;

export class ServerFigures {
  private readonly totals: number[] = [];
  private readonly sequential: number[] = [];
  private readonly queries: number[] = [];
  private readonly rowsRead: number[] = [];
  private readonly rowsWritten: number[] = [];
  private readonly phaseMs = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<
    (typeof PHASES)[number],
    number[]
  >;

  add(t: ServerTiming | null): void {
    if (!t) return;
    this.totals.push(t.dur.total ?? 0);
    for (const p of PHASES) if (t.dur[p] !== undefined) this.phaseMs[p].push(t.dur[p]);
    this.sequential.push(t.d1Sequential);
    this.queries.push(t.d1Queries);
    if (t.d1RowsRead !== null) this.rowsRead.push(t.d1RowsRead);
    if (t.d1RowsWritten !== null) this.rowsWritten.push(t.d1RowsWritten);
  }

  summary(): ServerSummary {
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const orNull = (xs: number[], f: (xs: number[]) => number) => (xs.length ? f(xs) : null);
    return {
      d1RowsReadMean: orNull(this.rowsRead, mean),
      d1RowsReadMax: orNull(this.rowsRead, (xs) => Math.max(...xs)),
      d1RowsWrittenMean: orNull(this.rowsWritten, mean),
      calls: this.totals.length,
      p50: percentile(this.totals, 50),
      p95: percentile(this.totals, 95),
      d1SequentialMean: mean(this.sequential),
      d1SequentialMax: Math.max(0, ...this.sequential),
      d1QueriesMean: mean(this.queries),
      phases: Object.fromEntries(
        PHASES.map((p) => [p, { p50: percentile(this.phaseMs[p], 50), p95: percentile(this.phaseMs[p], 95) }]),
      ) as ServerSummary["phases"],
    };
  }
}

/** "server p50 3.1 ms, p95 8.0 ms; D1 2.0 round trips (max 2), 3.0 statements, 40 rows read (max 60), 0.0 written per call" */
export function describeServer(s: ServerSummary): string {
  if (s.calls === 0) return "server: no Server-Timing header (older server?)";
  const rows =
    s.d1RowsReadMean === null
      ? ""
      : `, ${s.d1RowsReadMean.toFixed(0)} rows read (max ${s.d1RowsReadMax}), ${(s.d1RowsWrittenMean ?? 0).toFixed(1)} written`;
  return `server p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms; D1 ${s.d1SequentialMean.toFixed(1)} sequential round trips per call (max ${s.d1SequentialMax}), ${s.d1QueriesMean.toFixed(1)} statements${rows}`;
}
