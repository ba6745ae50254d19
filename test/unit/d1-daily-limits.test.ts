import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import { d1DailyLimitError } from "../../src/platform-limits/d1-daily-limits";
import { LimitedD1 } from "../../src/platform-limits/limited-d1";
import { FREE } from "../../src/platform-limits/platform-limits";

/** The texts of D1's changelog "D1 enforces free tier daily query limits" (2026-09-01). */
const READ =
  "D1_ERROR: Your account has exceeded D1's free tier daily row read limit. Upgrade to a paid plan or wait until tomorrow (midnight UTC) to continue.";
const WRITE =
  "D1_ERROR: Your account has exceeded D1's free tier daily row write limit. Upgrade to a paid plan or wait until tomorrow (midnight UTC) to continue.";

/** A D1 whose every call is refused with `message`, as D1 refuses past the daily limit. */
function refusingD1(message: string): D1Database {
  const refuse = async () => {
    throw new Error(message);
  };
  const statement = { bind: () => statement, run: refuse, all: refuse, first: refuse, raw: refuse };
  return { prepare: () => statement, batch: refuse, exec: refuse } as unknown as D1Database;
}

describe("D1's daily limits on Workers Free", () => {
  it("become quota_exceeded naming the limit, its reset and how to lift it", () => {
    const read = d1DailyLimitError(new Error(READ));
    expect(read).toBeInstanceOf(MemoryError);
    expect(read).toMatchObject({ code: "quota_exceeded", field: "d1_rows_read_per_day" });
    expect(read?.message).toBe(
      "Workers Free's D1 limit of 5,000,000 rows read a day is reached: D1 refuses queries until 00:00 UTC (nothing stored is lost); Workers Paid lifts it",
    );
    expect(d1DailyLimitError(new Error(WRITE))).toMatchObject({
      code: "quota_exceeded",
      field: "d1_rows_written_per_day",
    });
    expect(d1DailyLimitError(new Error("D1_ERROR: no such table: x"))).toBeNull();
    expect(d1DailyLimitError(undefined)).toBeNull();
  });

  it("are translated on every call of the limited D1: statements, batches and exec", async () => {
    const db = new LimitedD1(refusingD1(READ), { plan: "free", ...FREE }, () => undefined);
    const code = (p: Promise<unknown>) =>
      p.then(
        () => "ok",
        (e: unknown) => (e instanceof MemoryError ? e.code : String(e)),
      );
    expect(await code(db.prepare("SELECT 1").run())).toBe("quota_exceeded");
    expect(await code(db.prepare("SELECT 1").bind().all())).toBe("quota_exceeded");
    expect(await code(db.prepare("SELECT 1").first())).toBe("quota_exceeded");
    expect(await code(db.batch([db.prepare("SELECT 1")]))).toBe("quota_exceeded");
    expect(await code(db.exec("SELECT 1"))).toBe("quota_exceeded");
    const other = new LimitedD1(refusingD1("D1_ERROR: no such table: x"), { plan: "free", ...FREE }, () => undefined);
    expect(await code(other.prepare("SELECT 1").run())).toBe("Error: D1_ERROR: no such table: x");
  });
});
