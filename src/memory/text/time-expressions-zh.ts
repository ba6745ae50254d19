/**
 * @module memory/text/time-expressions-zh
 * Chinese time expressions in a query → time windows: 「2023年5月2日」「2023年5月」「5月2日」「七月份」,
 * relative ones (「昨天」「上周」「上个月」「去年」「三天前」「最近」) and fixed-date holidays (「五一」
 * 「国庆」). chrono-node's Chinese parser misses most relative forms, so these are our own rules.
 * Pure; `now` is the reference for relative expressions.
 */
import { DAY_MS, daySpan, monthSpan, type TimeWindow, weekSpan, yearlyWindow, yearSpan } from "./time-window";

const DIGITS: Record<string, number> = {
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
  window: (m: RegExpExecArray, now: number) => TimeWindow | null;
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

// Most specific first; a later rule never re-reads characters an earlier one consumed.
const RULES: Rule[] = [
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
];

/** Windows named by Chinese time expressions in `text`, in rule order. */
export function chineseTimeWindows(text: string, now: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  const used: boolean[] = new Array(text.length).fill(false);
  for (const rule of RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const start = m.index!,
        end = start + m[0].length;
      if (used.slice(start, end).some(Boolean)) continue;
      const w = rule.window(m as RegExpExecArray, now);
      if (!w) continue;
      for (let i = start; i < end; i++) used[i] = true;
      out.push(w);
    }
  }
  return out;
}
