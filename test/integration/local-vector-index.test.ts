import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { l2normalize } from "../../src/memory/vector-math";
import { LocalVectorIndex, quantize } from "../../src/storage/vectors/local-vector-index";
import { uniqueUser } from "../helpers/api-keys";

const owner = { accountId: "default", namespace: "user", userId: "vec-owner" };
const other = { accountId: "default", namespace: "user", userId: "vec-other" };

function vec(...values: number[]): Float32Array {
  return l2normalize(Float32Array.from(values));
}

function freshStub() {
  return env.USER_MEMORY.get(
    env.USER_MEMORY.idFromName(ownerAddress({ accountId: "default", namespace: "user", userId: uniqueUser("vec") })),
  );
}

describe("quantize", () => {
  it("keeps cosine within quantisation noise", () => {
    const a = vec(0.3, -0.2, 0.9, 0.1);
    const { q, scale } = quantize(a);
    expect(Math.max(...Array.from(q, Math.abs))).toBe(127);
    const restored = Array.from(q, (x) => x * scale);
    restored.forEach((x, i) => expect(x).toBeCloseTo(a[i], 2));
  });

  it("quantises a zero vector to zeros", () => {
    expect(quantize(new Float32Array(4))).toEqual({ q: new Int8Array(4), scale: 0 });
  });
});

describe("LocalVectorIndex in Durable Object SQLite", () => {
  it("ranks by cosine, updates in place, removes, and reloads from SQLite", async () => {
    await runInDurableObject(freshStub(), async (_i, state) => {
      const index = new LocalVectorIndex(state.storage.sql, 4);
      await index.upsert(owner, [
        { id: "a", vector: vec(1, 0, 0, 0) },
        { id: "b", vector: vec(0.7, 0.7, 0, 0) },
        { id: "c", vector: vec(0, 0, 1, 0) },
      ]);
      const first = await index.query(owner, vec(1, 0.1, 0, 0), 2);
      expect(first.map((h) => h.id)).toEqual(["a", "b"]);
      expect(first[0].score).toBeGreaterThan(0.98);
      await index.upsert(owner, [{ id: "a", vector: vec(0, 0, 0, 1) }]);
      await index.remove(owner, ["b"]);
      expect((await index.query(owner, vec(0, 0, 1, 0), 3)).map((h) => h.id)).toEqual(["c", "a"]);
      const reloaded = new LocalVectorIndex(state.storage.sql, 4);
      const hits = await reloaded.query(owner, vec(0, 0, 0.1, 1), 3);
      expect(hits.map((h) => h.id)).toEqual(["a", "c"]);
      expect((await reloaded.listIds(owner)).sort()).toEqual(["a", "c"]);
    });
  });

  it("never returns another owner's vectors and rejects wrong dimensions", async () => {
    await runInDurableObject(freshStub(), async (_i, state) => {
      const index = new LocalVectorIndex(state.storage.sql, 4);
      await index.upsert(owner, [{ id: "mine", vector: vec(1, 0, 0, 0) }]);
      await expect(index.upsert(owner, [{ id: "bad", vector: vec(1, 0, 0) }])).rejects.toThrow(/3 dims, index has 4/);
      const fresh = new LocalVectorIndex(state.storage.sql, 4);
      expect(await fresh.query(other, vec(1, 0, 0, 0), 5)).toEqual([]);
    });
  });

  it("grows past its initial capacity and keeps every row", async () => {
    await runInDurableObject(freshStub(), async (_i, state) => {
      const dims = 32;
      const distinct = (i: number) => {
        const v = new Float32Array(dims);
        v[i % dims] += 1;
        v[(Math.floor(i / dims) * 5 + 3) % dims] += 0.5;
        return l2normalize(v);
      };
      const index = new LocalVectorIndex(state.storage.sql, dims);
      await index.query(owner, distinct(0), 1);
      await index.upsert(
        owner,
        Array.from({ length: 200 }, (_, i) => ({ id: `v${i}`, vector: distinct(i) })),
      );
      for (const probe of [0, 63, 64, 199]) {
        const hits = await index.query(owner, distinct(probe), 1);
        expect(hits[0].id).toBe(`v${probe}`);
      }
      expect(index.residentBytes()).toBeGreaterThanOrEqual(200 * dims);
    });
  });

  it("grows one block at a time and releases an emptied block: no doubled copy, at most one block of slack", async () => {
    await runInDurableObject(freshStub(), async (_i, state) => {
      const dims = 32;
      const blockRows = 64;
      const blockBytes = blockRows * (dims + 4); // int8 components + float32 scales
      const unit = (i: number) => {
        const v = new Float32Array(dims);
        v[i % dims] = 1; // a distinct pair of components per i (i < dims * (dims - 1))
        v[(i + 1 + Math.floor(i / dims)) % dims] = 0.5;
        return l2normalize(v);
      };
      const items = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, k) => ({ id: `b${from + k}`, vector: unit(from + k) }));
      await new LocalVectorIndex(state.storage.sql, dims, Number.POSITIVE_INFINITY, blockRows).upsert(
        owner,
        items(0, 200),
      );
      const index = new LocalVectorIndex(state.storage.sql, dims, Number.POSITIVE_INFINITY, blockRows);
      await index.query(owner, unit(0), 1); // loads 200 rows: 4 blocks
      const matrixBytes = () => index.residentBytes();
      const loaded = matrixBytes(); // 4 blocks, 200 ids, a score buffer of 4 blocks' rows
      await index.upsert(owner, items(200, 256)); // fills the 4th block: nothing allocated
      expect(matrixBytes() - loaded).toBe(56 * 85); // only the ids' overhead
      await index.upsert(owner, items(256, 257)); // one more row: one more block, not a doubling
      expect(matrixBytes() - loaded).toBe(blockBytes + 57 * 85);
      for (const probe of [0, 63, 64, 199, 255, 256])
        expect((await index.query(owner, unit(probe), 1))[0].id).toBe(`b${probe}`);
      // The queries grew the score buffer to 5 blocks' rows (+64 floats).
      await index.remove(owner, ["b3"]); // 256 rows left: the 5th block is released
      expect(matrixBytes() - loaded).toBe(56 * 85 + blockRows * 4);
      expect((await index.query(owner, unit(256), 1))[0].id).toBe("b256");
      // Loaded from SQLite in chunks of a block: the same vectors and scales, bit for bit (every row's score).
      const reloaded = new LocalVectorIndex(state.storage.sql, dims, Number.POSITIVE_INFINITY, blockRows);
      const byId = (hits: { id: string; score: number }[]) => [...hits].sort((a, b) => a.id.localeCompare(b.id));
      for (const probe of [0, 100, 256])
        expect(byId(await reloaded.query(owner, unit(probe), 300))).toEqual(
          byId(await index.query(owner, unit(probe), 300)),
        );
      // The reloaded blocks (full blocks adopted from SQLite's blob, turned column-major in place) take
      // writes like any other: a swap-remove across blocks and a replaced vector, then a third load agrees.
      const reloadedBytes = reloaded.residentBytes();
      await reloaded.remove(owner, ["b70", "b140"]);
      await reloaded.upsert(owner, [{ id: "b10", vector: unit(250) }]);
      expect(reloaded.residentBytes()).toBe(reloadedBytes - 2 * 85);
      const third = new LocalVectorIndex(state.storage.sql, dims, Number.POSITIVE_INFINITY, blockRows);
      for (const probe of [10, 70, 140, 250])
        expect(byId(await third.query(owner, unit(probe), 300))).toEqual(
          byId(await reloaded.query(owner, unit(probe), 300)),
        );
      expect((await third.query(owner, unit(70), 300)).map((h) => h.id)).not.toContain("b70");
    });
  });
});
