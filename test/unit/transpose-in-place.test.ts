import { describe, expect, it } from "vitest";
import { transposeInPlace } from "../../src/storage/vectors/transpose-in-place";

function naive(a: Int8Array, rows: number, cols: number): Int8Array {
  const out = new Int8Array(a.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c];
  return out;
}

function filled(n: number, seed: number): Int8Array {
  const a = new Int8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    a[i] = (x >>> 16) & 0xff;
  }
  return a;
}

describe("transposeInPlace", () => {
  it.each([
    [1, 1],
    [1, 7],
    [7, 1],
    [2, 2],
    [2, 3],
    [3, 2],
    [5, 7],
    [16, 384],
    [384, 16],
    [4096, 384],
    [1000, 13],
  ])("turns a %i × %i row-major matrix into its transpose where it lies", (rows, cols) => {
    const a = filled(rows * cols, rows * 31 + cols);
    const expected = naive(a, rows, cols);
    const buffer = a.buffer;
    transposeInPlace(a, rows, cols);
    expect(a.buffer).toBe(buffer);
    expect(a).toEqual(expected);
  });

  it("transposing twice gives the matrix back", () => {
    const a = filled(37 * 11, 5);
    const original = a.slice();
    transposeInPlace(a, 37, 11);
    transposeInPlace(a, 11, 37);
    expect(a).toEqual(original);
  });

  it("refuses a buffer of another size, naming both", () => {
    expect(() => transposeInPlace(new Int8Array(10), 3, 4)).toThrow(/10 elements, expected 3 × 4/);
  });
});
