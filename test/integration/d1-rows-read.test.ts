/**
 * Reads that must not scan the owner's rows, checked with D1's own meta.rows_read (what D1 bills):
 * the write path's exact-duplicate lookup reads the rows with that hash, not the store.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { D1MemoryRepo } from "../../src/storage/d1-memory-repo";
import { MeteredD1 } from "../../src/storage/metered-d1";
import { RequestTiming, runTimed } from "../../src/timing/request-timing";
import { uniqueUser } from "../helpers/api-keys";

const STORE = 400;

describe("D1 rows read", () => {
  it("a save's duplicate lookup by content hash reads the matching rows only, not the owner's store", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rows-hash"), actor: "test" };
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scope)));
    const lines = Array.from({ length: STORE }, (_, i) => ({
      line: i + 1,
      input: { content: `Planning note ${i}: the team discussed item ${i % 37} and budget line ${i}` },
    }));
    const imported = await stub.import(scope, lines);
    expect(imported.ok).toBe(true);
    const repo = new D1MemoryRepo(new MeteredD1(env.DB));
    const timing = new RequestTiming();
    const found = await runTimed(timing, () => repo.findByHash(scope, "no-such-hash", null));
    expect(found).toBeNull();
    expect(timing.snapshot().d1RowsRead).toBeLessThan(10);
  });
});
