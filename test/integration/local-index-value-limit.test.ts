import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { l2normalize } from "../../src/memory/vector-math";
import { DO_SQLITE_MAX_VALUE_BYTES } from "../../src/storage/object/do-sqlite-limits";
import { LocalVectorIndex, localIndexBlockRows } from "../../src/storage/vectors/local-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { valueLimitedSql } from "../helpers/value-limited-sql";

const BGE_M3_DIMS = 1024;
const owner = { accountId: "default", namespace: "user", userId: "bge-owner" };

/** A deterministic pseudo-random unit vector per seed (xorshift), bge-m3-sized. */
function denseVector(seed: number): Float32Array {
  const v = new Float32Array(BGE_M3_DIMS);
  let x = (seed + 1) * 2654435761;
  for (let i = 0; i < BGE_M3_DIMS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    v[i] = ((x >>> 0) / 4294967296) * 2 - 1;
  }
  return l2normalize(v);
}

/** A ULID-shaped id (26 characters), as the server's ids are. */
const idOf = (i: number) => `01JBGEM3${String(i).padStart(18, "0")}`;

describe("the local vector index within Durable Object SQLite's 2 MB per value", () => {
  it("sizes a block so that one load query stays within 2 MB at 1,024 dimensions", () => {
    const rows = localIndexBlockRows(BGE_M3_DIMS);
    expect(rows).toBeGreaterThan(1000);
    expect(rows * (BGE_M3_DIMS + 29 + 25)).toBeLessThanOrEqual(DO_SQLITE_MAX_VALUE_BYTES);
    expect(localIndexBlockRows(384)).toBe(4096);
  });

  it("loads more than two blocks of bge-m3-sized vectors, no value or row read over 2 MB, and ranks them", async () => {
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress({ ...owner, userId: uniqueUser("bge") })));
    await runInDurableObject(stub, async (_i, state) => {
      const count = 2 * localIndexBlockRows(BGE_M3_DIMS) + 101; // two full blocks and part of a third
      const writer = new LocalVectorIndex(state.storage.sql, BGE_M3_DIMS);
      for (let from = 0; from < count; from += 500)
        await writer.upsert(
          owner,
          Array.from({ length: Math.min(500, count - from) }, (_, k) => ({
            id: idOf(from + k),
            vector: denseVector(from + k),
          })),
        );
      const limited = valueLimitedSql(state.storage.sql);
      const index = new LocalVectorIndex(limited.sql, BGE_M3_DIMS);
      for (const probe of [0, 1837, 1838, 3675, 3676, count - 1]) {
        const [top] = await index.query(owner, denseVector(probe), 3);
        expect(top.id).toBe(idOf(probe));
        expect(top.score).toBeGreaterThan(0.99);
      }
      expect((await index.listIds(owner)).length).toBe(count);
      // The load read whole blocks: each block's blob is the largest value, within the limit.
      expect(limited.largest.value).toBe(localIndexBlockRows(BGE_M3_DIMS) * BGE_M3_DIMS);
      expect(limited.largest.row).toBeLessThanOrEqual(DO_SQLITE_MAX_VALUE_BYTES);
      expect(index.residentBytes()).toBeGreaterThanOrEqual(3 * localIndexBlockRows(BGE_M3_DIMS) * BGE_M3_DIMS);
      expect(
        () => new LocalVectorIndex(state.storage.sql, BGE_M3_DIMS, Infinity, localIndexBlockRows(BGE_M3_DIMS) + 1),
      ).toThrow(/more than one Durable Object SQLite value holds/);
    });
  });
});
