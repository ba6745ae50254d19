/**
 * @module memory/text/relative-dates
 * The calendar day a memory's own words name ("tomorrow", "next Friday", "in two weeks", "on the
 * 20th", 「明天」「后天」「下周五」「月底」「两周后」「20号」), resolved against an anchor (the message's
 * date, the conversation's, or now) in a time zone, for the write paths' `event_time`. chrono-node
 * reads the text (its English casual parser, and its simplified-Chinese one when the text has Han),
 * with a few parsers of our own for what it does not read (day of month, 「月底」, 「两周后」). Only
 * a day the words fix counts: relative words, or a full date with its year; a bare weekday ("on
 * Friday", 「周三」), a recurring one ("every Friday", 「每周三」) or a month and day without a year
 * (a birthday) names no event day. Pure.
 *
 * chrono's patterns are partly polynomial (test/node/redos.test.ts): it reads the text in windows of
 * at most CHRONO_MAX_CHARS characters, the bound recall's queries have.
 */
import type { ParsedResult, Parser, ParsingContext } from "chrono-node";
import { Chrono, casual as casualEn } from "chrono-node/en";
import { casual as casualZh } from "chrono-node/zh/hans";
import { CHRONO_MAX_CHARS } from "./time-expressions";

export interface DateAnchor {
  /** The instant relative words are said at (epoch ms). */
  at: number;
  /** IANA time zone the person lives in ("Asia/Shanghai"); "today" is that zone's day. */
  timeZone: string;
}

export interface NamedDay {
  /** The day, YYYY-MM-DD. */
  day: string;
  /** The words that named it, as the text has them (after NFKC). */
  expression: string;
}

const DAY_MS = 86_400_000;
/** Windows overlap by this much, so an expression cut by a window's end is read whole by the next one. */
const WINDOW_OVERLAP = 40;

/**
 * Words without which chrono's English parser finds no day (a digit, a day or period word, a weekday
 * or month name): text without one skips the parser, which costs ~60 us a line. A gate only, linear.
 */
const EN_CUE =
  /\d|\b(?:today|tonight|tomorrow|yesterday|now|noon|midnight|morning|afternoon|evening|night|days?|weeks?|weekends?|fortnight|months?|years?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/i;
/** Characters without which the Chinese parsers find no day: 天 周 月 号 日 年 后 今 明 昨 晚 早, 星期, 礼拜. */
const ZH_CUE = /[天周月号日年后今明昨晚早]|星期|礼拜/;
const ZH_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };

/** 「两」「十二」「3」 → 2, 12, 3; 0 for what it cannot read. */
function zhNumber(text: string): number {
  if (/^[0-9]+$/.test(text)) return Number(text);
  const ten = text.indexOf("十");
  if (ten < 0) return ZH_DIGITS[text] ?? 0;
  const tens = ten === 0 ? 1 : (ZH_DIGITS[text.slice(0, ten)] ?? 0);
  const ones = ten === text.length - 1 ? 0 : (ZH_DIGITS[text.slice(ten + 1)] ?? 0);
  return tens * 10 + ones;
}

/** The reference day's UTC fields: chrono is given an instant whose UTC fields are the zone's wall clock. */
const refDay = (context: ParsingContext) => {
  const d = context.reference.instant;
  return { year: d.getUTCFullYear(), month: d.getUTCMonth(), day: d.getUTCDate() };
};
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const fields = (t: number) => {
  const d = new Date(t);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
};

/**
 * Day `n` of this month if it is still ahead, else of next month; null when no such day. Today's own
 * number is next month's: on the 20th a person says "today", and "the wedding is on the 20th" is a month away.
 */
function dayOfMonth(context: ParsingContext, n: number) {
  const r = refDay(context);
  if (n < 1 || n > 31) return null;
  if (n > r.day && n <= daysIn(r.year, r.month)) return fields(Date.UTC(r.year, r.month, n));
  if (n <= daysIn(r.year, r.month + 1)) return fields(Date.UTC(r.year, r.month + 1, n));
  return null;
}

/** "on the 20th", "by the 3rd" (not "the 20th of May", which chrono reads, nor "the 20th century"). */
const EN_DAY_OF_MONTH: Parser = {
  pattern: () =>
    /\b(?:on|by|until|till|before|after|from)\s{1,3}the\s{1,3}([0-9]{1,2})(?:st|nd|rd|th)\b(?!\s{0,3}(?:of|century|birthday|anniversary|floor|time|place)\b)/i,
  extract: (context, match) => dayOfMonth(context, Number(match[1])),
};

/**
 * 「20号」「3日」, not a building, a line or a room (「3号楼」「2号线」), nor 「12月20日」 (chrono reads it),
 * nor the tail of a longer numeral (「三月十二号」 is not 「二号」).
 */
const ZH_DAY_OF_MONTH: Parser = {
  pattern: () =>
    /(?<![0-9月零一二三四五六七八九十两])([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s?[号日](?![楼线房床门店院位])/,
  extract: (context, match) => dayOfMonth(context, zhNumber(match[1])),
};

/** "the 14th of next month", "on the 3rd of this month" (chrono reads only "next month": its first day). */
const EN_DAY_OF_RELATIVE_MONTH: Parser = {
  pattern: () => /\bthe\s{1,3}([0-9]{1,2})(?:st|nd|rd|th)\s{1,3}of\s{1,3}(next|this|last)\s{1,3}month\b/i,
  extract: (context, match) => {
    const r = refDay(context);
    const which = match[2].toLowerCase();
    const { year, month } = fields(Date.UTC(r.year, r.month + (which === "next" ? 1 : which === "last" ? -1 : 0), 1));
    const n = Number(match[1]);
    return n >= 1 && n <= daysIn(year, month - 1) ? fields(Date.UTC(year, month - 1, n)) : null;
  },
};

/** "the week after next": two weeks on (chrono reads "the week after" alone: one). */
const EN_WEEK_AFTER_NEXT: Parser = {
  pattern: () => /\bthe\s{1,3}week\s{1,3}after\s{1,3}next\b/i,
  extract: (context) => {
    const r = refDay(context);
    return fields(Date.UTC(r.year, r.month, r.day) + 14 * DAY_MS);
  },
};

const EN_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const ZH_WEEKDAYS = "一二三四五六日";

/**
 * Weekday `index` (0 Monday … 6 Sunday) of the week `offset` weeks from the reference day's, weeks
 * starting on Monday (ISO 8601, and how Chinese counts 「下周」).
 */
function weekdayOfWeek(context: ParsingContext, index: number, offset: number) {
  const r = refDay(context);
  const today = Date.UTC(r.year, r.month, r.day);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return fields(monday + (offset * 7 + index) * DAY_MS);
}

/** "on Friday next week", "Tuesday of next week", "next week on Friday", "this week's Thursday". */
const EN_WEEKDAY_OF_WEEK: Parser = {
  pattern: () =>
    /\b(?:(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s{1,3}(?:of\s{1,3})?(next|this)\s{1,3}week|(next|this)\s{1,3}week(?:['’]s\s{1,3}|\s{1,3}on\s{1,3})(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i,
  extract: (context, match) => {
    const weekday = (match[1] ?? match[4]).toLowerCase();
    const which = (match[2] ?? match[3]).toLowerCase();
    return weekdayOfWeek(context, EN_WEEKDAYS.indexOf(weekday), which === "next" ? 1 : 0);
  },
};

/** 「下周五」「这周三」「下个星期一」「上礼拜天」, weeks starting on Monday (chrono counts from Sunday). */
const ZH_WEEKDAY_OF_WEEK: Parser = {
  pattern: () => /(上|下|这|本)个?(?:周|星期|礼拜)([一二三四五六日天])/,
  extract: (context, match) => {
    const offset = match[1] === "下" ? 1 : match[1] === "上" ? -1 : 0;
    return weekdayOfWeek(context, ZH_WEEKDAYS.indexOf(match[2] === "天" ? "日" : match[2]), offset);
  },
};

/** 「下个月3号」「这个月20日」「上个月5号」: a day of a month said relative to this one. */
const ZH_RELATIVE_MONTH_DAY: Parser = {
  pattern: () => /(上|下|这|本)个?月\s?([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s?[号日]/,
  extract: (context, match) => {
    const r = refDay(context);
    const month = r.month + (match[1] === "下" ? 1 : match[1] === "上" ? -1 : 0);
    const n = zhNumber(match[2]);
    const first = Date.UTC(r.year, month, 1);
    const { year, month: m } = fields(first);
    return n >= 1 && n <= daysIn(year, m - 1) ? fields(Date.UTC(year, m - 1, n)) : null;
  },
};

/** 「两周后」「3个星期后」 (chrono reads 「两个星期后」 but not 「两周后」). */
const ZH_WEEKS_LATER: Parser = {
  pattern: () => /([0-9]{1,2}|[一二两三四五六七八九十]{1,3})\s?个?(?:周|星期|礼拜)(?:以|之)?后/,
  extract: (context, match) => {
    const n = zhNumber(match[1]);
    const r = refDay(context);
    return n > 0 ? fields(Date.UTC(r.year, r.month, r.day) + n * 7 * DAY_MS) : null;
  },
};

/** 「月底」「这个月底」「下个月底」「12月底」: the month's last day (Date.UTC carries a month past December into next year). */
const ZH_MONTH_END: Parser = {
  pattern: () => /(?:([0-9]{1,2})|(上|下|这|本)个?)?月(?:底|末)/,
  extract: (context, match) => {
    const r = refDay(context);
    const month = match[1] ? Number(match[1]) - 1 : r.month + (match[2] === "下" ? 1 : match[2] === "上" ? -1 : 0);
    return fields(Date.UTC(r.year, month + 1, 0));
  },
};

/**
 * Our parsers run apart from chrono's and win where both read the same words: chrono counts 「下周五」
 * from a Sunday-first week and merges "Friday next week" into a result without a day, and its overlap
 * refiner would otherwise choose between the two by length alone.
 */
const enOwn = new Chrono({
  parsers: [EN_DAY_OF_MONTH, EN_WEEKDAY_OF_WEEK, EN_DAY_OF_RELATIVE_MONTH, EN_WEEK_AFTER_NEXT],
  refiners: [],
});
const zhOwn = new Chrono({
  parsers: [ZH_DAY_OF_MONTH, ZH_WEEKS_LATER, ZH_MONTH_END, ZH_WEEKDAY_OF_WEEK, ZH_RELATIVE_MONTH_DAY],
  refiners: [],
});

/**
 * chrono's zh patterns are cubic on a run of spaces or tabs and quadratic on a run of numerals or
 * commas (`npm run bench:redos`: ~1.4 s for one window of tabs): runs of white space become one space,
 * a run of numerals longer than any date (no date has 13 digits in a row) a space, a run of commas one.
 */
const SPACE_RUN = /\s+/g;
const NUMERAL_RUN = /[0-9零〇一二两三四五六七八九十]{13,}/g;
/** Runs of the separators chrono's zh date pattern repeats (`[\s|,|，]*`, quadratic on a run) become one comma. */
const SEPARATOR_RUN = /[,，|]{2,}/g;

/** Words before a weekday that fix which one it is ("next Friday", 「下周五」). */
const WEEKDAY_MODIFIER = /^(?:next|last|this|coming|上|下|这|本)/i;
/** A recurring day ("every Friday", 「每周三」) names no event. */
const RECURRING_BEFORE = /(?:\bevery\s{1,3}|每个?|each\s{1,3})$/i;

/** One formatter per zone (building one costs more than parsing a line); a handful of zones per object. */
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let f = clocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    if (clocks.size >= 32) clocks.clear();
    clocks.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `at` in `timeZone`, as an instant whose UTC fields are that clock. */
export function wallClock(at: number, timeZone: string): number {
  if (timeZone === "UTC") return at;
  const parts = clockOf(timeZone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"));
}

/** Whether `zone` is a time zone this runtime knows (an IANA name or "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** "now" says a state holds, not when something happens ("I live in Munich now"). */
const NOW = /^(?:right\s)?now$/i;

function fixesDay(r: ParsedResult, before: string): boolean {
  if (RECURRING_BEFORE.test(before.slice(-8)) || NOW.test(r.text)) return false;
  const s = r.start;
  if (s.isCertain("day") && s.isCertain("month") && s.isCertain("year")) return true;
  return s.isCertain("weekday") && WEEKDAY_MODIFIER.test(r.text);
}

const pad = (n: number) => String(n).padStart(2, "0");
const isoDay = (r: ParsedResult) =>
  `${r.start.get("year")}-${pad(r.start.get("month") ?? 1)}-${pad(r.start.get("day") ?? 1)}`;

/** The first day the text names, read in windows of CHRONO_MAX_CHARS; null when it names none. */
export function namedDay(text: string, anchor: DateAnchor): NamedDay | null {
  const plain = text.normalize("NFKC").replace(SPACE_RUN, " ").replace(NUMERAL_RUN, " ").replace(SEPARATOR_RUN, ",");
  const english = EN_CUE.test(plain);
  const chinese = ZH_CUE.test(plain);
  if (!english && !chinese) return null;
  const own = [...(english ? [enOwn] : []), ...(chinese ? [zhOwn] : [])];
  const theirs = [...(english ? [casualEn] : []), ...(chinese ? [casualZh] : [])];
  const ref = new Date(wallClock(anchor.at, anchor.timeZone));
  const step = CHRONO_MAX_CHARS - WINDOW_OVERLAP;
  for (let start = 0; start < plain.length; start += step) {
    const window = plain.slice(start, start + CHRONO_MAX_CHARS);
    const read = (parsers: Chrono[]) =>
      parsers
        .flatMap((p) => p.parse(window, { instant: ref, timezone: 0 }))
        .filter((r) => fixesDay(r, window.slice(0, r.index)));
    const ours = read(own);
    const overlapsOurs = (r: ParsedResult) =>
      ours.some((o) => r.index < o.index + o.text.length && o.index < r.index + r.text.length);
    const found = [...ours, ...read(theirs).filter((r) => !overlapsOurs(r))].sort((a, b) => a.index - b.index);
    if (found.length > 0) return { day: isoDay(found[0]), expression: found[0].text };
    if (start + CHRONO_MAX_CHARS >= plain.length) break;
  }
  return null;
}
