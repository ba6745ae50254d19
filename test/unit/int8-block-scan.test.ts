import { describe, expect, it } from "vitest";
import { queryDims, scoreInt8Block } from "../../src/storage/vectors/int8-block-scan";

/** A small seeded generator (same values every run). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The scan as it was: one pass per non-zero dimension into a Float32Array, then the scales. */
function perDimension(
  block: Int8Array,
  blockRows: number,
  rows: number,
  dims: number,
  vector: Float32Array,
  scales: Float32Array,
): Float32Array {
  const out = new Float32Array(rows);
  for (let dim = 0; dim < dims; dim++) {
    const w = vector[dim];
    if (w === 0) continue;
    for (let row = 0; row < rows; row++) out[row] += w * block[dim * blockRows + row];
  }
  for (let row = 0; row < rows; row++) out[row] *= scales[row];
  return out;
}

function randomBlock(rand: () => number, dims: number, blockRows: number, density: number): Int8Array {
  const block = new Int8Array(dims * blockRows);
  for (let i = 0; i < block.length; i++) if (rand() < density) block[i] = Math.round((rand() * 2 - 1) * 127);
  return block;
}

function randomQuery(rand: () => number, dims: number, used: number): Float32Array {
  const v = new Float32Array(dims);
  for (let i = 0; i < used; i++) v[Math.floor(rand() * dims)] = (rand() * 2 - 1) * 0.3;
  return v;
}

describe("scoreInt8Block", () => {
  const dims = 48;
  const blockRows = 64;

  it("gives every score bit for bit as one pass per dimension did, for any count of query dimensions", () => {
    const rand = prng(7);
    for (const used of [1, 2, 3, 4, 5, 7, 8, 9, 22, dims]) {
      for (const rows of [1, 63, 64]) {
        const block = randomBlock(rand, dims, blockRows, 0.3);
        const scales = Float32Array.from({ length: blockRows }, () => rand() * 0.02);
        const vector = randomQuery(rand, dims, used);
        const out = new Float32Array(rows).fill(Number.NaN);
        scoreInt8Block(block, blockRows, rows, queryDims(vector, dims), scales, out);
        const expected = perDimension(block, blockRows, rows, dims, vector, scales);
        for (let r = 0; r < rows; r++) expect(Object.is(out[r], expected[r]), `used ${used}, row ${r}`).toBe(true);
      }
    }
  });

  it("scores an all-zero query 0 and overwrites what the buffer held", () => {
    const rand = prng(3);
    const block = randomBlock(rand, dims, blockRows, 0.5);
    const scales = Float32Array.from({ length: blockRows }, () => rand());
    const out = new Float32Array(10).fill(5);
    scoreInt8Block(block, blockRows, 10, queryDims(new Float32Array(dims), dims), scales, out);
    expect([...out]).toEqual(new Array(10).fill(0));
  });

  it("reads only the query's non-zero dimensions, in ascending order", () => {
    const v = new Float32Array(8);
    v[6] = 0.5;
    v[1] = -0.25;
    const q = queryDims(v, 8);
    expect(q.count).toBe(2);
    expect([...q.dims.subarray(0, 2)]).toEqual([1, 6]);
    expect([...q.weights.subarray(0, 2)]).toEqual([-0.25, 0.5]);
  });
});
