import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MeteredD1, sqlMsOf } from "../../src/storage/metered-d1";
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

  it("adds up the rows D1's meta says each statement read and wrote, first and raw included", async () => {
    const table = `rows_${Date.now()}`;
    await env.DB.exec(`CREATE TABLE ${table} (k INTEGER PRIMARY KEY, v TEXT)`);
    const s = await measure(async (db) => {
      await db.batch([1, 2, 3].map((k) => db.prepare(`INSERT INTO ${table} (k, v) VALUES (?, ?)`).bind(k, `v${k}`)));
      expect(await db.prepare(`SELECT v FROM ${table} WHERE k = 2`).first("v")).toBe("v2");
      expect(await db.prepare(`SELECT k, v FROM ${table} WHERE k = 9`).first()).toBeNull();
      expect(await db.prepare(`SELECT k, v FROM ${table} ORDER BY k`).raw()).toEqual([
        [1, "v1"],
        [2, "v2"],
        [3, "v3"],
      ]);
      await db.prepare(`SELECT count(*) FROM ${table}`).all();
    });
    const direct = await env.DB.batch([
      env.DB.prepare(`SELECT v FROM ${table} WHERE k = 2`),
      env.DB.prepare(`SELECT k, v FROM ${table} WHERE k = 9`),
      env.DB.prepare(`SELECT k, v FROM ${table} ORDER BY k`),
      env.DB.prepare(`SELECT count(*) FROM ${table}`),
    ]);
    const readByQueries = direct.reduce((n, r) => n + r.meta.rows_read, 0);
    expect(readByQueries).toBeGreaterThanOrEqual(1 + 3 + 3);
    expect(s.d1RowsWritten).toBeGreaterThanOrEqual(3);
    expect(s.d1RowsRead).toBeGreaterThanOrEqual(readByQueries);
    await env.DB.exec(`DROP TABLE ${table}`);
  });

  it("adds up D1's own execution time of each statement, within the time a call was in flight", async () => {
    // A statement that makes SQLite work: D1 reports its execution time in the result's meta.
    const busy =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT count(*) AS n FROM c";
    let reported = 0;
    const s = await measure(async (db) => {
      const r = await db.prepare(busy).all();
      const [b] = await db.batch([db.prepare(busy)]);
      reported = sqlMsOf(r.meta) + sqlMsOf(b.meta);
    });
    expect(reported).toBeGreaterThan(0);
    expect(s.d1SqlMs).toBeCloseTo(reported, 6);
    expect(s.d1SqlMs).toBeLessThanOrEqual(s.d1Ms);
  });

  it("reads D1's sql_duration_ms, else its duration, and nothing that is not a positive number", () => {
    expect(sqlMsOf({ duration: 3, timings: { sql_duration_ms: 1.5 } })).toBe(1.5);
    expect(sqlMsOf({ duration: 3 })).toBe(3);
    expect(sqlMsOf({ duration: Number.NaN })).toBe(0);
    expect(sqlMsOf({ duration: -1 })).toBe(0);
  });

  it("meters nothing outside a request", async () => {
    const db = new MeteredD1(env.DB);
    expect(await db.prepare("SELECT 7 AS n").first("n")).toBe(7);
  });
});
