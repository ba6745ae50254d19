/**
 * @module storage/vectors/int8-block-scan
 * The local vector index's hot loop (local-vector-index.ts): the scores of one column-major block of
 * int8 vectors against a query, as float32. Pure: no storage, no owner.
 *
 * The query's non-zero dimensions are read four per pass over the block's rows, so each row's score
 * is loaded and stored once per four dimensions instead of once per dimension; the scale multiplies
 * in the same pass as the last of them. A row's score is still rounded to float32 after every
 * dimension's addition, in ascending dimension order (`Math.fround`, as a Float32Array store
 * rounds), so every score is bit for bit what one pass per dimension gave: recall's answers do not
 * move (test/unit/int8-block-scan.test.ts compares both on random blocks). At 100k memories and the
 * hash embedder's ~20 dimensions a query uses, this was the largest JavaScript cost of a recall
 * (docs/benchmarks.md, "Where recall's time goes at 100k").
 */

/** Dimensions read per pass over a block's rows. */
const PER_PASS = 4;

/** The query's non-zero dimensions (ascending) and their weights; reused for every block of one query. */
export interface QueryDims {
  count: number;
  dims: Int32Array;
  weights: Float64Array;
}

/** The non-zero components among the first `dims` of `vector` (a missing one reads as NaN, as it did). */
export function queryDims(vector: Float32Array, dims: number): QueryDims {
  const at = new Int32Array(dims);
  const weights = new Float64Array(dims);
  let count = 0;
  for (let d = 0; d < dims; d++) {
    if (vector[d] === 0) continue;
    at[count] = d;
    weights[count++] = d < vector.length ? vector[d] : Number.NaN;
  }
  return { count, dims: at, weights };
}

/**
 * Writes into `out[0…rows)` the scores of the block's first `rows` vectors: Σ weight × component in
 * ascending dimension order, rounded to float32 after each addition, times the vector's scale.
 * `block[dim * blockRows + r]` is the component of row `r` in dimension `dim`.
 */
export function scoreInt8Block(
  block: Int8Array,
  blockRows: number,
  rows: number,
  q: QueryDims,
  scales: Float32Array,
  out: Float32Array,
): void {
  const { count, dims, weights } = q;
  if (count === 0) {
    // 0 × scale, as the per-dimension loop gave (a NaN or infinite scale stays visible).
    for (let r = 0; r < rows; r++) out[r] = 0 * scales[r];
    return;
  }
  for (let i = 0; i < count; i += PER_PASS) {
    const n = Math.min(PER_PASS, count - i);
    // Unused lanes repeat lane 0's offset with weight 0 and are skipped below.
    const o0 = dims[i] * blockRows;
    const o1 = n > 1 ? dims[i + 1] * blockRows : o0;
    const o2 = n > 2 ? dims[i + 2] * blockRows : o0;
    const o3 = n > 3 ? dims[i + 3] * blockRows : o0;
    const w0 = weights[i];
    const w1 = n > 1 ? weights[i + 1] : 0;
    const w2 = n > 2 ? weights[i + 2] : 0;
    const w3 = n > 3 ? weights[i + 3] : 0;
    const first = i === 0;
    const last = i + n >= count;
    for (let r = 0; r < rows; r++) {
      let a = first ? 0 : out[r];
      a = Math.fround(a + w0 * block[o0 + r]);
      if (n > 1) a = Math.fround(a + w1 * block[o1 + r]);
      if (n > 2) a = Math.fround(a + w2 * block[o2 + r]);
      if (n > 3) a = Math.fround(a + w3 * block[o3 + r]);
      out[r] = last ? a * scales[r] : a;
    }
  }
}
