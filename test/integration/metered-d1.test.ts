import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MeteredD1 } from "../../src/storage/metered-d1";
import { RequestTiming, runTimed } from "../../src/timing/request-timing";

async function measure(work: (db: D1Database) => Promise<unknown>) {
  const timing = new RequestTiming();
  await runTimed(timing, () => work(new MeteredD1(env.DB)));
  return timing.snapshot();
}

describe("MeteredD1", () => {
  it("counts statements one after another as sequential round trips", async () => {
    const s = await measure(async (db) => {
      await db.prepare("SELECT 1 AS n").first();
      await db.prepare("SELECT ? AS n").bind(2).all();
      await db.prepare("SELECT 3").raw();
    });
    expect(s).toMatchObject({ d1Queries: 3, d1Sequential: 3 });
    expect(s.d1Ms).toBeGreaterThan(0);
  });

  it("counts queries awaited together as one round trip, and a batch as one round trip of n statements", async () => {
    const together = await measure((db) =>
      Promise.all([db.prepare("SELECT 1").all(), db.prepare("SELECT 2").all(), db.prepare("SELECT 3").run()]),
    );
    expect(together).toMatchObject({ d1Queries: 3, d1Sequential: 1 });
    const batch = await measure((db) =>
      db.batch([db.prepare("SELECT 1"), db.prepare("SELECT ?").bind(2), db.prepare("SELECT 3")]),
    );
    expect(batch).toMatchObject({ d1Queries: 3, d1Sequential: 1 });
  });

  it("batches bound statements with their values and still meters failures", async () => {
    const s = await measure(async (db) => {
      const [r] = await db.batch<{ n: number }>([db.prepare("SELECT ? AS n").bind(41)]);
      expect(r.results[0].n).toBe(41);
      await expect(db.prepare("SELECT * FROM no_such_table").all()).rejects.toThrow();
      await db.prepare("SELECT 1").first();
    });
    expect(s).toMatchObject({ d1Queries: 3, d1Sequential: 3 });
  });

  it("meters nothing outside a request", async () => {
    const db = new MeteredD1(env.DB);
    expect(await db.prepare("SELECT 7 AS n").first("n")).toBe(7);
  });
});
