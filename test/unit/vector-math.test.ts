/**
 * @module test/unit/vector-math
 * cosine and l2normalize: the numbers every ranking path compares.
 */
import { describe, expect, it } from "vitest";
import { cosine, l2normalize } from "../../src/memory/vector-math";

describe("l2normalize", () => {
  it("returns a unit-length copy and leaves the input alone", () => {
    const v = new Float32Array([3, 4]);
    const n = l2normalize(v);
    expect(Array.from(n)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(v)).toEqual([3, 4]);
  });

  it("keeps a zero vector zero instead of producing NaN", () => {
    expect(Array.from(l2normalize(new Float32Array(3)))).toEqual([0, 0, 0]);
  });
});

describe("cosine", () => {
  it("is 1 for the same direction, 0 for orthogonal, -1 for opposite", () => {
    const a = new Float32Array([1, 2, 3]);
    expect(cosine(a, new Float32Array([2, 4, 6]))).toBeCloseTo(1, 6);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0, 1]))).toBe(0);
    expect(cosine(a, new Float32Array([-1, -2, -3]))).toBeCloseTo(-1, 6);
  });

  it("is 0 when either vector is zero", () => {
    expect(cosine(new Float32Array(2), new Float32Array([1, 1]))).toBe(0);
  });

  it("refuses vectors of different dimensions", () => {
    expect(() => cosine(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });
});
