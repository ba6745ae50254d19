/**
 * @module storage/vectors/transpose-in-place
 * Transposes a row-major matrix of int8 inside its own buffer (cycle following). The local vector
 * index reads a block of rows from SQLite as one row-major blob and scans it column-major: turning
 * that blob around where it lies means loading 100k vectors leaves no 1.5 MB copy per block behind
 * as garbage (38 MB at 100k, held until V8 next collects: docs/benchmarks.md).
 */

/**
 * `a` holds `rows` × `cols` row-major; afterwards it holds the transpose (`cols` × `rows`, row-major).
 * Element (r, c) at r·cols + c moves to c·rows + r. Every element moves once along its cycle of that
 * permutation; a bitset (n / 8 bytes) marks the places already written.
 */
export function transposeInPlace(a: Int8Array, rows: number, cols: number): void {
  const n = rows * cols;
  if (a.length !== n) throw new RangeError(`transposeInPlace: ${a.length} elements, expected ${rows} × ${cols}`);
  if (rows <= 1 || cols <= 1) return; // a single row or column reads the same either way
  const done = new Uint32Array(Math.ceil(n / 32));
  const destination = (i: number) => {
    const r = Math.floor(i / cols);
    return (i - r * cols) * rows + r;
  };
  for (let start = 1; start < n - 1; start++) {
    if (done[start >>> 5] & (1 << (start & 31))) continue;
    let i = start;
    let carried = a[i];
    do {
      const j = destination(i);
      const displaced = a[j];
      a[j] = carried;
      carried = displaced;
      done[j >>> 5] |= 1 << (j & 31);
      i = j;
    } while (i !== start);
  }
}
