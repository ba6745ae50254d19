/** The fresh buffer is bounded by bytes: 1024-d vectors of a big import cannot fill an isolate. */
import { describe, expect, it } from "vitest";
import { FRESH_BUFFER_MAX_BYTES, FreshBuffer } from "../../src/memory/fresh-buffer";

const vector1024 = (seed: number) => Float32Array.from({ length: 1024 }, (_, i) => (i === seed % 1024 ? 1 : 0));

describe("FreshBuffer byte bound", () => {
  it("keeps at most FRESH_BUFFER_MAX_BYTES of 1024-d vectors, dropping the oldest first", () => {
    const buffer = new FreshBuffer();
    for (let i = 0; i < 5000; i++) buffer.add(`m${i}`, vector1024(i), 0);
    expect(buffer.bytes).toBeLessThanOrEqual(FRESH_BUFFER_MAX_BYTES);
    expect(buffer.size).toBe(FRESH_BUFFER_MAX_BYTES / 4096);
    const ids = buffer.score(vector1024(4999), 3, 1).map((h) => h.id);
    expect(ids[0]).toBe("m4999");
    expect(buffer.score(vector1024(0), 5000, 1).map((h) => h.id)).not.toContain("m0");
  });

  it("counts a replaced or removed entry once", () => {
    const buffer = new FreshBuffer(60_000, 10, 3 * 4096);
    buffer.add("a", vector1024(1), 0);
    buffer.add("a", vector1024(2), 0);
    expect(buffer.bytes).toBe(4096);
    buffer.add("b", vector1024(3), 0);
    buffer.add("c", vector1024(4), 0);
    buffer.add("d", vector1024(5), 0);
    expect(buffer.size).toBe(3);
    expect(buffer.bytes).toBe(3 * 4096);
    buffer.remove(["b", "zzz"]);
    expect(buffer.bytes).toBe(2 * 4096);
    buffer.score(vector1024(1), 5, 120_000); // all expired
    expect(buffer.bytes).toBe(0);
  });
});
