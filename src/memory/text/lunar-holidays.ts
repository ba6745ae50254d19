/**
 * @module memory/text/lunar-holidays
 * The Gregorian dates of Chinese lunar-calendar holidays (春节, 除夕, 元宵, 端午, 七夕, 中秋, 重阳) in a
 * given year, read from the runtime's own Chinese calendar (Intl, ICU) rather than a hand-kept table.
 * A holiday named without a year (「春节那会儿」) means it in any recent year: one window per year.
 * Pure apart from a per-isolate cache.
 */
import { DAY_MS, type TimeWindow } from "./time-window";

export type LunarHoliday = "春节" | "除夕" | "元宵" | "端午" | "七夕" | "中秋" | "重阳";

/** Lunar month and day of each holiday; 除夕 is the day before 春节 (the last month has 29 or 30 days). */
const LUNAR: Record<Exclude<LunarHoliday, "除夕">, [number, number]> = {
  春节: [1, 1],
  元宵: [1, 15],
  端午: [5, 5],
  七夕: [7, 7],
  中秋: [8, 15],
  重阳: [9, 9],
};

/** Days a holiday's window covers from its first day: the Spring Festival week, one day otherwise. */
const SPAN_DAYS: Record<LunarHoliday, { before: number; after: number }> = {
  春节: { before: 1, after: 7 },
  除夕: { before: 0, after: 2 },
  元宵: { before: 0, after: 1 },
  端午: { before: 0, after: 1 },
  七夕: { before: 0, after: 1 },
  中秋: { before: 0, after: 1 },
  重阳: { before: 0, after: 1 },
};

let calendar: Intl.DateTimeFormat | null | undefined;
const cache = new Map<string, number | null>();

function chineseCalendar(): Intl.DateTimeFormat | null {
  if (calendar === undefined) {
    try {
      calendar = new Intl.DateTimeFormat("en-u-ca-chinese", {
        timeZone: "UTC",
        year: "numeric",
        month: "numeric",
        day: "numeric",
      });
    } catch {
      calendar = null;
    }
  }
  return calendar;
}

/**
 * UTC midnight of lunar `month`/`day` (not a leap month) in the lunar year starting in Gregorian
 * `year`, or null when the runtime has no Chinese calendar. Lunar month M day D falls about
 * 29.5·(M−1) + D days after a new year between Jan 21 and Feb 20: a 45-day scan around it finds it.
 */
export function lunarDate(year: number, month: number, day: number): number | null {
  const key = `${year}-${month}-${day}`;
  if (cache.has(key)) return cache.get(key)!;
  const cal = chineseCalendar();
  let found: number | null = null;
  const start = Date.UTC(year, 0, 18) + Math.floor(29.5 * (month - 1) + day - 1) * DAY_MS;
  for (let t = start; cal && found === null && t < start + 45 * DAY_MS; t += DAY_MS) {
    const parts = Object.fromEntries(cal.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
    if (parts.month === String(month) && parts.day === String(day) && parts.relatedYear === String(year)) found = t;
  }
  cache.set(key, found);
  return found;
}

/** The holiday's window in `year`, or null when the date cannot be computed. */
export function lunarHolidayWindow(holiday: LunarHoliday, year: number): TimeWindow | null {
  const first = holiday === "除夕" ? lunarDate(year, 1, 1) : lunarDate(year, ...LUNAR[holiday]);
  if (first === null) return null;
  const day = holiday === "除夕" ? first - DAY_MS : first;
  const { before, after } = SPAN_DAYS[holiday];
  return { kind: "span", from: day - before * DAY_MS, to: day + after * DAY_MS };
}

/** One window per year from `fromYear` to `toYear` inclusive (a holiday named without its year). */
export function lunarHolidayWindows(holiday: LunarHoliday, fromYear: number, toYear: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  for (let y = fromYear; y <= toYear; y++) {
    const w = lunarHolidayWindow(holiday, y);
    if (w) out.push(w);
  }
  return out;
}
