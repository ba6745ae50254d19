/**
 * @module test/unit/relative-dates
 * The day a memory's own words name, in English and Chinese, against a fixed anchor and a time zone:
 * relative words resolve, bare or recurring weekdays and birthdays do not, and "today" is the
 * person's day, not UTC's.
 */
import { describe, expect, it } from "vitest";
import { isTimeZone, namedDay } from "../../src/memory/text/relative-dates";
import { CHRONO_MAX_CHARS } from "../../src/memory/text/time-expressions";

// Friday 4 December 2026, 10:00 UTC (18:00 in Shanghai).
const FRIDAY = Date.UTC(2026, 11, 4, 10);
const utc = { at: FRIDAY, timeZone: "UTC" };
const day = (text: string, anchor = utc) => namedDay(text, anchor)?.day ?? null;

describe("relative days in English", () => {
  it.each([
    ["Dinner with Ana tomorrow", "2026-12-05"],
    ["The dentist is the day after tomorrow", "2026-12-06"],
    ["Flight to Oslo next Friday", "2026-12-11"],
    ["I fly home in two weeks", "2026-12-18"],
    ["Rent is due on the 20th", "2026-12-20"],
    ["Pay the plumber by the 3rd", "2027-01-03"],
    ["The report is due at the end of the month", "2026-12-31"],
    ["I met Ana yesterday", "2026-12-03"],
    ["We signed the lease on May 7, 2023", "2023-05-07"],
    ["I've got a dentist appointment on Friday next week.", "2026-12-11"],
    ["The interview is Tuesday of next week", "2026-12-08"],
    ["Next week on Monday I start", "2026-12-07"],
    ["The plumber comes Thursday this week", "2026-12-03"],
    ["My sister's wedding is on the 14th of next month", "2027-01-14"],
    ["The school fair is on the 28th of this month", "2026-12-28"],
    ["We're flying to Lisbon the week after next", "2026-12-18"],
  ])("%s → %s", (text, expected) => {
    expect(day(text)).toBe(expected);
  });

  it.each([
    "I go swimming every Friday",
    "My birthday is May 7",
    "I live in Lisbon",
    "She turned 20 in the 20th century",
    "I may go to Porto",
    "I live in Munich now",
    "Right now I work at Zalando",
  ])("names no event day: %s", (text) => {
    expect(day(text)).toBeNull();
  });

  it("reads today's own day of the month as next month's: on the 4th one says 'today'", () => {
    expect(day("My sister's wedding is on the 4th.")).toBe("2027-01-04");
  });

  it("keeps the words that named the day", () => {
    expect(namedDay("Flight to Oslo next Friday", utc)).toEqual({ day: "2026-12-11", expression: "next Friday" });
  });
});

describe("relative days in Chinese", () => {
  it("counts 「下周」 from Monday: said on a Sunday, 「下周五」 is five days away, not twelve", () => {
    const sunday = { at: Date.UTC(2025, 1, 9, 4), timeZone: "Asia/Shanghai" };
    expect(day("车子下周五要去做保养。", sunday)).toBe("2025-02-14");
    expect(day("这周六去爬山", sunday)).toBe("2025-02-08");
  });

  it.each([
    ["我明天去北京出差", "2026-12-05"],
    ["后天要交报告", "2026-12-06"],
    ["下周三和小雅吃饭", "2026-12-09"],
    ["下周五交房租", "2026-12-11"],
    ["月底要搬家", "2026-12-31"],
    ["两周后出发去成都", "2026-12-18"],
    ["20号还信用卡", "2026-12-20"],
    ["3号去体检", "2027-01-03"],
    ["下个月底考试", "2027-01-31"],
    ["三天后回来", "2026-12-07"],
    ["孩子学校下个月3号开家长会", "2027-01-03"],
    ["这个月28号交房租", "2026-12-28"],
    ["上周三见过他", "2026-11-25"],
    ["十二号我要去医院", "2026-12-12"],
    ["我二十号去上海", "2026-12-20"],
  ])("%s → %s", (text, expected) => {
    expect(day(text)).toBe(expected);
  });

  it.each(["我每周三游泳", "我住在3号楼", "坐2号线上班", "我生日是12月20日", "我生日是三月十二号", "我住在杭州"])(
    "names no event day: %s",
    (text) => {
      expect(day(text)).toBeNull();
    },
  );
});

describe("the person's time zone", () => {
  it("reads 'tomorrow' from the zone's day, not UTC's", () => {
    // 20:00 UTC on Friday is already 04:00 on Saturday in Shanghai.
    const late = Date.UTC(2026, 11, 4, 20);
    expect(day("明天开会", { at: late, timeZone: "UTC" })).toBe("2026-12-05");
    expect(day("明天开会", { at: late, timeZone: "Asia/Shanghai" })).toBe("2026-12-06");
    expect(day("meeting tomorrow", { at: late, timeZone: "Asia/Shanghai" })).toBe("2026-12-06");
    // 02:00 UTC on Friday is still Thursday evening in New York.
    const early = Date.UTC(2026, 11, 4, 2);
    expect(day("meeting tomorrow", { at: early, timeZone: "America/New_York" })).toBe("2026-12-04");
  });

  it("knows IANA zones and refuses made-up ones", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});

describe("bounded reading", () => {
  it("reads a day across runs of white space, commas and long numbers (what chrono is slow on)", () => {
    expect(day(`明天\t\t\t\t\t开会`)).toBe("2026-12-05");
    expect(day(`订单号 12345678901234567，，，，，后天到`)).toBe("2026-12-06");
    expect(day(`${"\t".repeat(5000)}月〇月`)).toBeNull();
  });

  it("finds a date past the first window of a long memory", () => {
    const long = `${"We talked about the garden and the roses. ".repeat(Math.ceil((CHRONO_MAX_CHARS * 2) / 42))}The gardener comes tomorrow.`;
    expect(long.length).toBeGreaterThan(CHRONO_MAX_CHARS * 2);
    expect(day(long)).toBe("2026-12-05");
  });
});
