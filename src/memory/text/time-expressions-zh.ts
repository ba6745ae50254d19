/**
 * @module memory/text/time-expressions-zh
 * Chinese time expressions in a query → time windows: 「2023年5月2日」「2023年5月」「5月2日」「七月份」,
 * parts of months (「九月中旬」「3月初」), relative ones (「昨天」「上周」「上周末」「前几天」「上个月」「去年」
 * 「三天前」「最近」), fixed-date holidays (「五一」「国庆」「清明」「母亲节」) and lunar ones with or without
 * their year (「春节」「去年中秋」「2024年端午」, lunar-holidays.ts). chrono-node's Chinese parser misses
 * most of these, so they are our own rules. Pure; `now` is the reference for relative expressions.
 */
import { type LunarHoliday, lunarHolidayWindow, lunarHolidayWindows } from "./lunar-holidays";
import { DAY_MS, daySpan, monthSpan, type TimeWindow, weekSpan, yearlyWindow, yearSpan } from "./time-window";

/** The value of each Chinese digit (两 too); also read by the near-duplicate test's number forms. */
export const DIGITS: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};

/** 1-99 written with Arabic digits or Chinese numerals (「十二」「二十三」「三十一」「两」). */
export function chineseNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const ten = text.indexOf("十");
  if (ten === -1) return text.length === 1 && text in DIGITS ? DIGITS[text] : null;
  const tens = ten === 0 ? 1 : DIGITS[text.slice(0, ten)];
  const rest = text.slice(ten + 1);
  const ones = rest === "" ? 0 : DIGITS[rest];
  if (tens === undefined || ones === undefined || ten > 1 || rest.length > 1) return null;
  return tens * 10 + ones;
}

const NUM = "(\\d{1,2}|[零〇一二两三四五六七八九十]{1,3})";

interface Rule {
  pattern: RegExp;
  /** One window, several (a holiday in any year), or null when the match is not a valid time. */
  window: (m: RegExpExecArray, now: number) => TimeWindow | TimeWindow[] | null;
}

const year = (now: number) => new Date(now).getUTCFullYear();
const month0 = (now: number) => new Date(now).getUTCMonth();

function validDay(month: number | null, day: number | null): boolean {
  return month !== null && day !== null && month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/** Relative spans "N units ago": centred on the moment, as wide as the unit. */
function ago(n: number | null, unit: string, now: number): TimeWindow | null {
  if (n === null || n < 1) return null;
  const days = unit === "年" ? 365 : unit.includes("月") ? 30 : unit === "天" || unit === "日" ? 1 : 7;
  const at = now - n * days * DAY_MS;
  return days === 1 ? daySpan(at) : { kind: "span", from: at - (days / 2) * DAY_MS, to: at + (days / 2) * DAY_MS };
}

const LUNAR_NAMES: Record<string, LunarHoliday> = {
  春节: "春节",
  过年: "春节",
  大年初一: "春节",
  除夕: "除夕",
  大年三十: "除夕",
  年三十: "除夕",
  元宵: "元宵",
  端午: "端午",
  七夕: "七夕",
  中秋: "中秋",
  重阳: "重阳",
};
const RELATIVE_YEAR: Record<string, number> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1 };
/** How many years back a lunar holiday named without a year is looked for. */
const LUNAR_YEARS_BACK = 10;

/** 「春节」 in any recent year; 「去年中秋」「2024年端午」 in that year. */
function lunarRule(m: RegExpExecArray, now: number): TimeWindow | TimeWindow[] | null {
  const holiday = LUNAR_NAMES[m[3]];
  if (m[1] || m[2]) return lunarHolidayWindow(holiday, m[1] ? +m[1] : year(now) + RELATIVE_YEAR[m[2]]);
  return lunarHolidayWindows(holiday, year(now) - LUNAR_YEARS_BACK, year(now));
}

/** 初 / 上旬: days 1-10; 中旬: 11-20; 下旬 / 底 / 末: 21 to the month's end. */
const PART_OF_MONTH: Record<string, [number, number]> = {
  初: [1, 10],
  上旬: [1, 10],
  中旬: [11, 20],
  下旬: [21, 31],
  底: [21, 31],
  末: [21, 31],
};

function partOfMonth(y: number | null, mo: number | null, part: string): TimeWindow | null {
  if (mo === null || mo < 1 || mo > 12) return null;
  const [from, to] = PART_OF_MONTH[part];
  if (y === null) return yearlyWindow(mo, from, to);
  const end = Math.min(Date.UTC(y, mo - 1, to + 1), Date.UTC(y, mo, 1));
  return { kind: "span", from: Date.UTC(y, mo - 1, from), to: end };
}

function weekend(now: number, offsetWeeks: number): TimeWindow {
  const week = weekSpan(now, offsetWeeks) as { from: number; to: number };
  return { kind: "span", from: week.to - 2 * DAY_MS, to: week.to };
}

/** Any Han character: what each rule below needs at least one of. */
const HAN = /\p{Script=Han}/u;

// Most specific first; a later rule never re-reads characters an earlier one consumed.
const RULES: Rule[] = [
  {
    pattern:
      /(?:(\d{4})\s*年|(前年|去年|今年|明年))?(春节|过年|大年初一|除夕|大年三十|年三十|元宵|端午|七夕|中秋|重阳)/g,
    window: lunarRule,
  },
  {
    pattern: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(初|上旬|中旬|下旬|底|末)/g,
    window: (m) => partOfMonth(+m[1], +m[2], m[3]),
  },
  {
    pattern: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]/g,
    window: (m) => daySpan(Date.UTC(+m[1], +m[2] - 1, +m[3])),
  },
  { pattern: /(\d{4})\s*年\s*(\d{1,2})\s*月份?/g, window: (m) => monthSpan(+m[1], +m[2] - 1) },
  { pattern: /(\d{4})\s*年/g, window: (m) => yearSpan(+m[1]) },
  {
    pattern: new RegExp(`${NUM}\\s*月\\s*${NUM}\\s*[日号]`, "g"),
    window: (m) => {
      const mo = chineseNumber(m[1]),
        d = chineseNumber(m[2]);
      return validDay(mo, d) ? yearlyWindow(mo!, d!) : null;
    },
  },
  {
    pattern: new RegExp(`${NUM}\\s*月\\s*(初|上旬|中旬|下旬|底|末)`, "g"),
    window: (m) => partOfMonth(null, chineseNumber(m[1]), m[2]),
  },
  {
    pattern: /(上上个?周末|上个?周末|这个?周末|本周末)/g,
    window: (m, now) => weekend(now, m[1].startsWith("上上") ? -2 : m[1].startsWith("上") ? -1 : 0),
  },
  {
    pattern: /(前几天|前些天|前阵子|前段时间)/g,
    window: (_m, now) => ({ kind: "span", from: now - 14 * DAY_MS, to: now + DAY_MS }),
  },
  {
    pattern: /(大前天|前天|昨天|昨晚|今天|今晚|今早)/g,
    window: (m, now) => daySpan(now - ({ 大前天: 3, 前天: 2, 昨天: 1, 昨晚: 1 }[m[1]] ?? 0) * DAY_MS),
  },
  {
    pattern: /(上上周|上周|上个?星期|上个?礼拜|这周|本周|这个?星期|这个?礼拜)/g,
    window: (m, now) => weekSpan(now, m[1].startsWith("上上") ? -2 : m[1].startsWith("上") ? -1 : 0),
  },
  {
    pattern: /(上上个月|上个?月|这个月|本月)/g,
    window: (m, now) =>
      monthSpan(year(now), month0(now) - (m[1].startsWith("上上") ? 2 : m[1].startsWith("上") ? 1 : 0)),
  },
  { pattern: /(前年|去年|今年)/g, window: (m, now) => yearSpan(year(now) - ({ 前年: 2, 去年: 1 }[m[1]] ?? 0)) },
  {
    pattern: new RegExp(`${NUM}\\s*(天|日|周|个?星期|个?礼拜|个?月|年)(?:以|之)?前`, "g"),
    window: (m, now) => ago(chineseNumber(m[1]), m[2], now),
  },
  {
    pattern: /(最近|近来|这几天|这阵子)/g,
    window: (_m, now) => ({ kind: "span", from: now - 30 * DAY_MS, to: now + DAY_MS }),
  },
  {
    pattern: new RegExp(`${NUM}\\s*月份?`, "g"),
    window: (m) => {
      const mo = chineseNumber(m[1]);
      return mo !== null && mo >= 1 && mo <= 12 ? yearlyWindow(mo, 1, 31) : null;
    },
  },
  { pattern: /(五一|劳动节)/g, window: () => yearlyWindow(5, 1, 5) },
  { pattern: /(国庆|十一长假|十一假期)/g, window: () => yearlyWindow(10, 1, 7) },
  { pattern: /(元旦)/g, window: () => yearlyWindow(1, 1) },
  { pattern: /(平安夜|圣诞)/g, window: () => yearlyWindow(12, 24, 25) },
  { pattern: /(双十一)/g, window: () => yearlyWindow(11, 11) },
  { pattern: /(情人节)/g, window: () => yearlyWindow(2, 14) },
  { pattern: /(三八节|妇女节)/g, window: () => yearlyWindow(3, 8) },
  { pattern: /(儿童节)/g, window: () => yearlyWindow(6, 1) },
  { pattern: /(清明)/g, window: () => yearlyWindow(4, 4, 6) },
  { pattern: /(冬至)/g, window: () => yearlyWindow(12, 21, 22) },
  { pattern: /(母亲节)/g, window: () => yearlyWindow(5, 8, 14) },
  { pattern: /(父亲节)/g, window: () => yearlyWindow(6, 15, 21) },
  { pattern: /(教师节)/g, window: () => yearlyWindow(9, 10) },
  { pattern: /(万圣节)/g, window: () => yearlyWindow(10, 31) },
  { pattern: /(?<!\d)520(?=\s*(?:那天|当天|节|的时候))/g, window: () => yearlyWindow(5, 20) },
];

/** Windows named by Chinese time expressions in `text`, in rule order. */
export function chineseTimeWindows(text: string, now: number): TimeWindow[] {
  // Every rule needs a Han character (年, 月, 周, 前, a festival…): text without one matches none,
  // and most recall queries are such text (26 regexes each, ~2% of a recall's CPU at 1k).
  if (!HAN.test(text)) return [];
  const out: TimeWindow[] = [];
  const used: boolean[] = new Array(text.length).fill(false);
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const start = m.index!,
        end = start + m[0].length;
      if (used.slice(start, end).some(Boolean)) continue;
      const w = rule.window(m as RegExpExecArray, now);
      if (!w || (Array.isArray(w) && w.length === 0)) continue;
      for (let i = start; i < end; i++) used[i] = true;
      out.push(...(Array.isArray(w) ? w : [w]));
    }
  }
  return out;
}
