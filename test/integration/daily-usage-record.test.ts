/**
 * The day's usage record in the user's Durable Object storage (durable/daily-usage-record.ts): it
 * survives the object (a new record over the same storage reads it back), starts afresh on a new UTC
 * day, writes nothing for a call that spent nothing, and a storage failure never fails the call. The
 * object's own calls feed it: a save through the object leaves D1 rows in the stored record.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DAILY_USAGE_KEY, DailyUsageRecord } from "../../src/durable/daily-usage-record";
import { type DailyUsage, emptyAiTally } from "../../src/platform-limits/daily-usage";
import { uniqueUser } from "../helpers/api-keys";
import { ok, ownerOf, stubOf } from "../helpers/lifecycle";

const DAY = Date.UTC(2026, 11, 5, 9);
const delta = (read: number, written: number) => ({ d1RowsRead: read, d1RowsWritten: written, ai: emptyAiTally() });

describe("the day's usage record", () => {
  it("persists in the object's storage, rolls over at 00:00 UTC and skips calls that spent nothing", async () => {
    await runInDurableObject(stubOf(ownerOf(uniqueUser("usage-record"))), async (_instance, state) => {
      const record = new DailyUsageRecord(state.storage);
      await record.add(delta(120, 14), DAY);
      await record.add(delta(30, 0), DAY + 1_000);
      const reread = new DailyUsageRecord(state.storage);
      expect(await reread.today(DAY + 2_000)).toMatchObject({ day: "2026-12-05", d1RowsRead: 150, d1RowsWritten: 14 });
      expect(await reread.today(Date.UTC(2026, 11, 6))).toMatchObject({ day: "2026-12-06", d1RowsRead: 0 });

      await state.storage.delete(DAILY_USAGE_KEY);
      await new DailyUsageRecord(state.storage).add(delta(0, 0), DAY);
      expect(await state.storage.get(DAILY_USAGE_KEY)).toBeUndefined();
    });
  });

  it("a storage that refuses the write does not fail the call", async () => {
    const refusing = {
      get: async () => undefined,
      put: async () => {
        throw new Error("SQLITE_FULL");
      },
    } as unknown as DurableObjectStorage;
    await expect(new DailyUsageRecord(refusing).add(delta(1, 1), DAY)).resolves.toBeUndefined();
  });

  it("the object's own calls feed it: a save leaves its D1 rows in today's stored record", async () => {
    const owner = ownerOf(uniqueUser("usage-feed"));
    const stub = stubOf(owner);
    await ok(stub.save(owner, { content: "I started learning the cello in October" }));
    await runInDurableObject(stub, async (_instance, state) => {
      const stored = await state.storage.get<DailyUsage>(DAILY_USAGE_KEY);
      expect(stored?.day).toBe(new Date().toISOString().slice(0, 10));
      expect(stored?.d1RowsWritten).toBeGreaterThan(0);
      expect(stored?.d1RowsRead).toBeGreaterThan(0);
    });
  });
});
