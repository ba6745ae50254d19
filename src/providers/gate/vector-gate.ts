/**
 * @module providers/gate/vector-gate
 * Every vector a model answers passes here before it is normalised: as many as texts were sent,
 * each of the configured dimension, every component a finite number that float32 can hold. An
 * embedding server answering 1e39 would otherwise become Infinity in a Float32Array, NaN once
 * normalised, and a NaN score in every recall of that user. A vector that fails is the whole
 * batch's failure: provider_unavailable, so a write is stored and indexed later (index repair
 * re-embeds rows with indexed_at null) and recall answers by keywords, as in an outage.
 */
import { MemoryError } from "../../memory/errors";
import { l2normalize } from "../../memory/vector-math";

/** The largest finite float32 (a component past it becomes Infinity in a Float32Array). */
export const FLOAT32_MAX = 3.4028234663852886e38;

/** What is wrong with one raw vector, or null. */
export function rawVectorFault(values: unknown, dims: number): string | null {
  if (!Array.isArray(values) && !(values instanceof Float32Array)) return "a vector that is not a list";
  if (values.length !== dims) return `a ${values.length}-dimension vector (configured: ${dims})`;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (typeof x !== "number" || !Number.isFinite(x) || Math.abs(x) > FLOAT32_MAX)
      return "a vector component that is not a finite float32";
  }
  return null;
}

/**
 * The model's vectors, checked and L2-normalised, or provider_unavailable naming what was wrong
 * (`mismatch` words a dimension error, e.g. which setting to change). Never the vectors' values.
 */
export function gateVectors(
  provider: string,
  rows: readonly unknown[],
  texts: number,
  dims: number,
  mismatch?: (got: number) => string,
): Float32Array[] {
  if (rows.length !== texts)
    throw new MemoryError("provider_unavailable", `${provider} returned ${rows.length} vectors for ${texts} texts`);
  for (const row of rows) {
    const fault = rawVectorFault(row, dims);
    if (!fault) continue;
    const got = Array.isArray(row) ? row.length : -1;
    if (mismatch && got >= 0 && got !== dims) throw new MemoryError("provider_unavailable", mismatch(got));
    throw new MemoryError("provider_unavailable", `${provider} answered ${fault}`);
  }
  return rows.map((row) => l2normalize(Float32Array.from(row as number[])));
}
