/**
 * PLATFORM_LIMITS refuses locally what Cloudflare refuses: D1 statements and subrequests per
 * invocation, bound parameters, statement length, value and row size in D1 and in the Durable
 * Object's SQLite. Each refusal names the limit and happens before the statement is sent, so a
 * refused batch writes nothing.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { MemoryError } from "../../src/memory/errors";
import { InvocationBudget, runInvocation } from "../../src/platform-limits/invocation-budget";
import { LimitedD1 } from "../../src/platform-limits/limited-d1";
import { limitedSqlStorage } from "../../src/platform-limits/limited-sql-storage";
import {
  CPU_SHARE,
  cpuUnits,
  FREE,
  PAID,
  type PlatformLimits,
  platformLimitsSchema,
  STEP_CPU_US,
} from "../../src/platform-limits/platform-limits";
import { OWNER_PAGE_ROWS } from "../../src/shards/d1-owner-rows";

const paid: PlatformLimits = { plan: "paid", ...PAID };
const small: PlatformLimits = { plan: "custom", ...PAID, d1_queries_per_invocation: 5 };

async function refusal(work: () => Promise<unknown>): Promise<MemoryError> {
  const err = await work().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MemoryError);
  return err as MemoryError;
}

describe("PLATFORM_LIMITS config", () => {
  it("the suite runs under paid; free, off and JSON overrides parse, bad ones name the rule", () => {
    expect(loadConfig(env).PLATFORM_LIMITS).toMatchObject({ plan: "paid", d1_queries_per_invocation: 1000 });
    expect(platformLimitsSchema.parse("free")).toMatchObject({ plan: "free", ...FREE });
    expect(platformLimitsSchema.parse("off").plan).toBe("off");
    expect(platformLimitsSchema.parse('{"d1_queries_per_invocation": 3}')).toMatchObject({
      plan: "custom",
      d1_queries_per_invocation: 3,
      subrequests_per_invocation: PAID.subrequests_per_invocation,
    });
    expect(() => loadConfig({ PLATFORM_LIMITS: '{"d1_queries": 3}' })).toThrow(/PLATFORM_LIMITS/);
    expect(() => loadConfig({ PLATFORM_LIMITS: '{"d1_queries_per_invocation": 5000}' })).toThrow(
      /d1_queries_per_invocation/,
    );
    expect(() => loadConfig({ PLATFORM_LIMITS: "enterprise" })).toThrow(/"paid", "free", "off"/);
  });

  it("free models the Free plan: 1,000 subrequests to Cloudflare services, 5 M stored dimensions, 500 MB databases", () => {
    expect(FREE).toMatchObject({
      d1_queries_per_invocation: 50,
      subrequests_per_invocation: 1000,
      vectorize_stored_dimensions: 5_000_000,
      d1_database_bytes: 500_000_000,
      vectors_per_index: 10_000_000,
    });
    expect(PAID).toMatchObject({ subrequests_per_invocation: 10_000, vectorize_stored_dimensions: 0 });
  });

  it("CPU per invocation: free 10 ms, paid 30 s, raised by JSON up to the 5 minutes limits.cpu_ms allows", () => {
    expect(FREE.cpu_ms_per_invocation).toBe(10);
    expect(PAID.cpu_ms_per_invocation).toBe(30_000);
    expect(platformLimitsSchema.parse('{"cpu_ms_per_invocation": 300000}').cpu_ms_per_invocation).toBe(300_000);
    expect(() => loadConfig({ PLATFORM_LIMITS: '{"cpu_ms_per_invocation": 300001}' })).toThrow(/cpu_ms_per_invocation/);
  });

  it("the steps' sizes follow from the CPU limit and the measured cost per unit; paid's stay above what D1 and config allow", () => {
    const free: PlatformLimits = { plan: "free", ...FREE };
    for (const step of Object.keys(STEP_CPU_US) as (keyof typeof STEP_CPU_US)[])
      expect(cpuUnits(free, step)).toBe(Math.floor((10_000 * CPU_SHARE) / STEP_CPU_US[step]));
    // Paid: more than a part's D1 allowance (~248 pages of 1,000), an import request's 5,000 lines, a user's 2,000 lifecycle rows.
    expect(cpuUnits(paid, "exportMemory")).toBeGreaterThan(248_000);
    expect(cpuUnits(paid, "importLine")).toBeGreaterThan(5_000);
    expect(cpuUnits(paid, "lifecycleRow")).toBeGreaterThan(2_000);
    // And more than a shard-move step's D1 allowance: pages of 200 rows, each one statement at least.
    expect(cpuUnits(paid, "moveRow")).toBeGreaterThan(PAID.d1_queries_per_invocation * OWNER_PAGE_ROWS);
  });
});

describe("D1 under the limits", () => {
  it("counts every statement of a batch and refuses the one past the per-invocation cap before sending it", async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS limits_probe (n INTEGER)");
    await env.DB.exec("DELETE FROM limits_probe");
    const db = new LimitedD1(env.DB, small);
    const budget = new InvocationBudget(small);
    const err = await runInvocation(budget, async () => {
      await db.prepare("INSERT INTO limits_probe VALUES (1)").run();
      await db.batch([
        db.prepare("INSERT INTO limits_probe VALUES (2)"),
        db.prepare("INSERT INTO limits_probe VALUES (3)"),
      ]);
      expect(budget.d1Queries).toBe(3);
      expect(budget.subrequests).toBe(2);
      return refusal(() =>
        db.batch([1, 2, 3].map((n) => db.prepare("INSERT INTO limits_probe VALUES (?)").bind(10 + n))),
      );
    });
    expect(err.code).toBe("limit_exceeded");
    expect(err.field).toBe("d1_queries_per_invocation");
    expect(err.message).toMatch(/d1_queries_per_invocation \(5, PLATFORM_LIMITS\)/);
    const { results } = await env.DB.prepare("SELECT n FROM limits_probe ORDER BY n").all<{ n: number }>();
    expect(results.map((r) => r.n)).toEqual([1, 2, 3]); // the refused batch wrote nothing
  });

  it("a new invocation starts afresh", async () => {
    const db = new LimitedD1(env.DB, small);
    for (let run = 0; run < 2; run++)
      await runInvocation(new InvocationBudget(small), async () => {
        for (let i = 0; i < 5; i++) await db.prepare("SELECT 1").first();
      });
  });

  it("refuses 101 bound parameters, SQL over 100 KB and a string over 2 MB, per statement", async () => {
    const db = new LimitedD1(env.DB, paid);
    const params = Array.from({ length: 101 }, (_, i) => i);
    const many = await refusal(() =>
      db
        .prepare(`SELECT ${params.map(() => "?").join(",")}`)
        .bind(...params)
        .all(),
    );
    expect(many.field).toBe("bound_parameters_per_statement");
    const long = await refusal(() => db.prepare(`SELECT '${"x".repeat(100_001)}'`).all());
    expect(long.field).toBe("sql_statement_bytes");
    const big = await refusal(() => db.prepare("SELECT length(?)").bind("é".repeat(1_000_001)).all());
    expect(big.field).toBe("d1_value_bytes");
    // 100 parameters and a 1.9 MB string pass.
    await db
      .prepare(
        `SELECT ${params
          .slice(1)
          .map(() => "?")
          .join(",")}`,
      )
      .bind(...params.slice(1))
      .all();
    await db.prepare("SELECT length(?) AS n").bind("x".repeat(1_900_000)).first();
  });

  it("refuses a result value over 2 MB, as D1 does", async () => {
    const db = new LimitedD1(env.DB, paid);
    const err = await refusal(() => db.prepare("SELECT zeroblob(2000001) AS b").first());
    expect(err.field).toBe("d1_value_bytes");
  });
});

describe("the Durable Object's SQLite under the limits", () => {
  it("refuses a string, a BLOB or a result row over 2 MB and too many parameters; a refused write changes nothing", async () => {
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName("platform-limits-sql"));
    await runInDurableObject(stub, async (_instance, state) => {
      const sql = limitedSqlStorage(state.storage.sql, paid);
      sql.exec("CREATE TABLE IF NOT EXISTS probe (v BLOB)");
      const blob = (n: number) => new Uint8Array(n);
      expect(() => sql.exec("INSERT INTO probe VALUES (?)", blob(2_000_001))).toThrow(/do_sql_value_bytes/);
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM probe").one().n).toBe(0);
      sql.exec("INSERT INTO probe VALUES (?)", blob(1_200_000));
      sql.exec("INSERT INTO probe VALUES (?)", blob(1_200_000));
      // One value over 2 MB built by the query itself: refused as it is read.
      expect(() => sql.exec("SELECT group_concat(hex(v)) AS all_of_it FROM probe").toArray()).toThrow(
        /do_sql_value_bytes/,
      );
      expect(() => sql.exec("SELECT v AS a, v AS b FROM probe LIMIT 1").one()).toThrow(/result row/);
      const params = Array.from({ length: 101 }, () => 1);
      expect(() => sql.exec(`SELECT ${params.map(() => "?").join(",")}`, ...params)).toThrow(
        /bound_parameters_per_statement/,
      );
      expect([...sql.exec("SELECT length(v) AS n FROM probe")].map((r) => r.n)).toEqual([1_200_000, 1_200_000]);
    });
  });
});
