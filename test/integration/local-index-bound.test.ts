/** The local index refuses to hold more vectors than LOCAL_INDEX_MAX_VECTORS (DO SQLite, real object). */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { LocalVectorIndex } from "../../src/storage/vectors/local-vector-index";
import { uniqueUser } from "../helpers/api-keys";

const owner = { accountId: "default", namespace: "user", userId: "bound-owner" };
const unit = (i: number) => Float32Array.from({ length: 8 }, (_, d) => (d === i % 8 ? 1 : 0));

describe("LocalVectorIndex with maxVectors", () => {
  it("takes vectors up to the bound, replaces in place, and refuses more", async () => {
    const address = ownerAddress({ accountId: "default", namespace: "user", userId: uniqueUser("bound") });
    await runInDurableObject(env.USER_MEMORY.get(env.USER_MEMORY.idFromName(address)), async (_i, state) => {
      const index = new LocalVectorIndex(state.storage.sql, 8, 3);
      await index.upsert(owner, [
        { id: "a", vector: unit(0) },
        { id: "b", vector: unit(1) },
      ]);
      await index.upsert(owner, [
        { id: "a", vector: unit(2) },
        { id: "c", vector: unit(3) },
      ]);
      await expect(index.upsert(owner, [{ id: "d", vector: unit(4) }])).rejects.toThrow(
        /local vector index is full: 3 of 3 vectors \(LOCAL_INDEX_MAX_VECTORS\)/,
      );
      expect((await index.query(owner, unit(2), 5)).map((h) => h.id)[0]).toBe("a");
      expect(await index.listIds?.(owner)).toHaveLength(3);
      await index.remove(owner, ["b"]);
      await index.upsert(owner, [{ id: "d", vector: unit(4) }]);
    });
  });
});
