import { casual } from "chrono-node/en";
import { describe, expect, it, vi } from "vitest";
import { LIMITS } from "../../src/memory/limits";
import { CHRONO_MAX_CHARS, timeWindows } from "../../src/memory/text/time-expressions";
import { chineseNumber } from "../../src/memory/text/time-expressions-zh";
import { type TimeWindow, windowContains } from "../../src/memory/text/time-window";

// Sunday 29 November 2026, noon UTC.
const NOW = Date.UTC(2026, 10, 29, 12);

/** "2023-05-07..2023-05-08" for spans, "yearly 5/2-2" for yearly windows. */
function show(w: TimeWindow): string {
  if (w.kind === "yearly") return `yearly ${w.month}/${w.fromDay}-${w.toDay}`;
  const d = (t: number) => new Date(t).toISOString().slice(0, 10);
  return `${d(w.from)}..${d(w.to)}`;
}
const windows = (q: string) => timeWindows(q, NOW).map(show);

describe("English time expressions", () => {
  it("reads absolute dates, months and years", () => {
    expect(windows("What painting did Melanie show on October 13, 2023?")).toEqual(["2023-10-13..2023-10-14"]);
    expect(windows("Who did Maria have dinner with on 3 June, 2023?")).toEqual(["2023-06-03..2023-06-04"]);
    expect(windows("What did Maria start doing in December 2023?")).toEqual(["2023-12-01..2024-01-01"]);
    expect(windows("How many times did she go to the beach in 2023?")).toEqual(["2023-01-01..2024-01-01"]);
    expect(windows("What did John do the week before August 3, 2023?")).toEqual(["2023-07-27..2023-07-28"]);
  });

  it("gives relative expressions the width their words mean", () => {
    expect(windows("what did I eat yesterday")).toEqual(["2026-11-28..2026-11-29"]);
    expect(windows("plans from last week")).toEqual(["2026-11-16..2026-11-23"]);
    expect(windows("what happened last weekend")).toEqual(["2026-11-21..2026-11-23"]);
    expect(windows("books I read last month")).toEqual(["2026-10-01..2026-11-01"]);
    expect(windows("trips last year")).toEqual(["2025-01-01..2026-01-01"]);
    expect(windows("the concert two weeks ago")).toEqual(["2026-11-12..2026-11-19"]);
    expect(windows("what did I do recently")).toEqual(["2026-10-30..2026-11-30"]);
  });

  it("takes a bare month only where it is a time, never the verb", () => {
    expect(windows("where did we go in June")).toEqual(["yearly 6/1-31"]);
    expect(windows("Did John march in the parade?")).toEqual([]);
    expect(windows("I may go to the gym")).toEqual([]);
    expect(windows("When is Melanie planning on going camping?")).toEqual([]);
    expect(windows("What did Caroline do at 5 pm?")).toEqual([]);
  });
});

describe("what chrono-node reads", () => {
  it("never more than the query limit, also when NFKC widens the query", () => {
    const parse = vi.spyOn(casual, "parse");
    try {
      // U+FDFA is one character that NFKC turns into eighteen.
      const wide = "\uFDFA".repeat(LIMITS.queryMaxChars);
      expect(wide.normalize("NFKC").length).toBeGreaterThan(CHRONO_MAX_CHARS);
      timeWindows(wide, NOW);
      timeWindows(`${"1 ".repeat(LIMITS.queryMaxChars / 2)}`, NOW);
      expect(parse).toHaveBeenCalledTimes(2);
      for (const [text] of parse.mock.calls) expect(text.length).toBeLessThanOrEqual(CHRONO_MAX_CHARS);
      expect(CHRONO_MAX_CHARS).toBe(LIMITS.queryMaxChars);
    } finally {
      parse.mockRestore();
    }
  });

  it("still reads a date at the end of a query of the longest allowed length", () => {
    const tail = " on may 7, 2023";
    const query = `${"x".repeat(LIMITS.queryMaxChars - tail.length)}${tail}`;
    expect(timeWindows(query, NOW).length).toBe(1);
  });
});

describe("Chinese time expressions", () => {
  it("reads dates with and without a year", () => {
    expect(windows("2023年5月2日做了什么")).toEqual(["2023-05-02..2023-05-03"]);
    expect(windows("2023年12月王芳获得了什么荣誉")).toEqual(["2023-12-01..2024-01-01"]);
    expect(windows("林晓5月2日和谁一起旅行")).toEqual(["yearly 5/2-2"]);
    expect(windows("七月份的线上事故是什么原因")).toEqual(["yearly 7/1-31"]);
    expect(windows("十二月二十五号去了哪里")).toEqual(["yearly 12/25-25"]);
  });

  it("reads relative expressions and fixed-date holidays", () => {
    expect(windows("上个月买了什么")).toEqual(["2026-10-01..2026-11-01"]);
    expect(windows("上周去哪儿了")).toEqual(["2026-11-16..2026-11-23"]);
    expect(windows("昨天吃了什么")).toEqual(["2026-11-28..2026-11-29"]);
    expect(windows("去年的旅行")).toEqual(["2025-01-01..2026-01-01"]);
    expect(windows("三天前说了什么")).toEqual(["2026-11-26..2026-11-27"]);
    expect(windows("五一假期去了哪里")).toEqual(["yearly 5/1-5"]);
    expect(windows("喜欢什么服装")).toEqual([]);
  });

  it("reads Chinese numerals from one to thirty-one", () => {
    expect([
      chineseNumber("五"),
      chineseNumber("十"),
      chineseNumber("十二"),
      chineseNumber("二十三"),
      chineseNumber("三十一"),
      chineseNumber("两"),
    ]).toEqual([5, 10, 12, 23, 31, 2]);
    expect(chineseNumber("百")).toBeNull();
  });
});

describe("windowContains", () => {
  const margins = { beforeDays: 1, afterDays: 7 };
  it("widens spans by the margins: events are told after they happen", () => {
    const day = { kind: "span", from: Date.UTC(2023, 6, 27), to: Date.UTC(2023, 6, 28) } as const;
    expect(windowContains(day, Date.UTC(2023, 7, 3, 15), margins)).toBe(true);
    expect(windowContains(day, Date.UTC(2023, 7, 5), margins)).toBe(false);
    expect(windowContains(day, Date.UTC(2023, 6, 26, 6), margins)).toBe(true);
    expect(windowContains(day, Date.UTC(2023, 6, 25), margins)).toBe(false);
  });

  it("matches yearly windows in any year", () => {
    const mayDay = { kind: "yearly", month: 5, fromDay: 2, toDay: 2 } as const;
    expect(windowContains(mayDay, Date.UTC(2019, 4, 2, 9), margins)).toBe(true);
    expect(windowContains(mayDay, Date.UTC(2024, 4, 6), margins)).toBe(true);
    expect(windowContains(mayDay, Date.UTC(2024, 5, 2), margins)).toBe(false);
  });
});
