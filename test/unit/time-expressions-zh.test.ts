/**
 * @module test/unit/time-expressions-zh
 * Chinese dates beyond plain days and months: lunar holidays (with and without a year), parts of a
 * month, weekends and 「前几天」 — read against a fixed clock.
 */
import { describe, expect, it } from "vitest";
import { lunarDate } from "../../src/memory/text/lunar-holidays";
import { chineseTimeWindows } from "../../src/memory/text/time-expressions-zh";
import type { TimeWindow } from "../../src/memory/text/time-window";

// Sunday 29 November 2026, noon UTC.
const NOW = Date.UTC(2026, 10, 29, 12);
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const show = (w: TimeWindow) =>
  w.kind === "yearly" ? `yearly ${w.month}/${w.fromDay}-${w.toDay}` : `${day(w.from)}..${day(w.to)}`;
const windows = (q: string) => chineseTimeWindows(q, NOW).map(show);

describe("lunar holidays", () => {
  it("reads lunar dates from the runtime's Chinese calendar", () => {
    expect(day(lunarDate(2024, 1, 1)!)).toBe("2024-02-10");
    expect(day(lunarDate(2025, 1, 1)!)).toBe("2025-01-29");
    expect(day(lunarDate(2024, 8, 15)!)).toBe("2024-09-17");
    expect(day(lunarDate(2023, 5, 5)!)).toBe("2023-06-22");
  });

  it("gives a holiday with a year (digits or 去年) one window, the Spring Festival its week", () => {
    expect(windows("2024年春节我怎么回的家？")).toEqual(["2024-02-09..2024-02-17"]);
    expect(windows("去年中秋我们吃了什么月饼")).toEqual(["2025-10-06..2025-10-07"]);
    expect(windows("除夕夜我在哪里？")).toHaveLength(11);
    expect(windows("2024年除夕")).toEqual(["2024-02-09..2024-02-11"]);
  });

  it("gives a holiday without a year one window in each recent year", () => {
    const spring = windows("春节那会儿我是怎么回老家的？");
    expect(spring).toHaveLength(11);
    expect(spring).toContain("2024-02-09..2024-02-17");
    expect(windows("元宵节我带孙子去哪里看灯？")).toContain("2024-02-24..2024-02-25");
  });
});

describe("more Chinese time expressions", () => {
  it("reads parts of a month, with and without a year", () => {
    expect(windows("九月中旬我说自己要升什么职位？")).toEqual(["yearly 9/11-20"]);
    expect(windows("3月初")).toEqual(["yearly 3/1-10"]);
    expect(windows("2024年2月底")).toEqual(["2024-02-21..2024-03-01"]);
  });

  it("reads weekends, 前几天 and solar or Gregorian festivals", () => {
    expect(windows("上周末我去哪儿了")).toEqual(["2026-11-21..2026-11-23"]);
    expect(windows("前几天我说了什么")).toEqual(["2026-11-15..2026-11-30"]);
    expect(windows("清明节我们去哪里祭扫？")).toEqual(["yearly 4/4-6"]);
    expect(windows("冬至那天我约女朋友去哪吃饭？")).toEqual(["yearly 12/21-22"]);
    expect(windows("母亲节我给妈妈送了什么？")).toEqual(["yearly 5/8-14"]);
    expect(windows("520那天我在干什么")).toEqual(["yearly 5/20-20"]);
    expect(windows("我花了520块")).toEqual([]);
  });

  it("keeps reading the forms it read before", () => {
    expect(windows("五月二号我跟你说过什么")).toEqual(["yearly 5/2-2"]);
    expect(windows("上周我报了什么比赛")).toEqual(["2026-11-16..2026-11-23"]);
  });
});
