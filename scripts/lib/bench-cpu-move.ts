/**
 * @module scripts/lib/bench-cpu-move
 * The CPU one row of a shard-move step costs, from the steps `npm run bench:cpu` measured: each step
 * reports the rows it read (copied to the target, or read back there to verify), and its isolate CPU
 * above a step that carries nothing (an owner with no rows crossing whole) is put down to those rows.
 * Steps that only copied, only verified, and every step that read rows give three figures; a step's
 * row cap has to hold for the costliest of them.
 */

export interface MoveStepCpu {
  /** Isolate CPU of the step, ms. */
  cpuMs: number;
  copied: number;
  verified: number;
}

export interface MoveRowCost {
  /** µs per row, over steps that read rows and copied none (NaN without any). */
  verify: number;
  /** µs per row, over steps that read rows and verified none. */
  copy: number;
  /** µs per row, over every step that read rows. */
  all: number;
  /** Most rows one step read. */
  maxRows: number;
}

/** µs per row of `steps` above `fixedMs` a step; NaN when none of them read a row. */
function perRow(steps: MoveStepCpu[], fixedMs: number): number {
  const rows = steps.reduce((n, s) => n + s.copied + s.verified, 0);
  if (rows === 0) return Number.NaN;
  return (steps.reduce((n, s) => n + s.cpuMs - fixedMs, 0) * 1000) / rows;
}

export function moveRowCost(steps: MoveStepCpu[], fixedMs: number): MoveRowCost {
  const reading = steps.filter((s) => s.copied + s.verified > 0);
  return {
    copy: perRow(
      reading.filter((s) => s.verified === 0),
      fixedMs,
    ),
    verify: perRow(
      reading.filter((s) => s.copied === 0),
      fixedMs,
    ),
    all: perRow(reading, fixedMs),
    maxRows: Math.max(0, ...steps.map((s) => s.copied + s.verified)),
  };
}
