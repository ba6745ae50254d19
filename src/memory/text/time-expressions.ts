/**
 * @module memory/text/time-expressions
 * Time expressions in a recall query → time windows that recall turns into boosts. English relative
 * expressions ("yesterday", "last week", "two months ago", "recently") are our own rules, so their
 * windows have the width the words mean; absolute dates ("May 7, 2023", "in October 2023", "the
 * week before August 3, 2023") go to chrono-node; bare years ("in 2022") and Chinese expressions
 * (time-expressions-zh.ts) are rules again. Pure; `now` anchors relative expressions.
 */

import type { ParsedResult } from "chrono-node";
import { casual } from "chrono-node/en";
import { LIMITS } from "../limits";
import { chineseTimeWindows } from "./time-expressions-zh";
import { DAY_MS, daySpan, monthSpan, type TimeWindow, weekSpan, yearlyWindow, yearSpan } from "./time-window";

export type { TimeWindow } from "./time-window";

const WORD_NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  "a few": 3,
  "a couple of": 2,
  "couple of": 2,
  several: 4,
};
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

interface Rule {
  pattern: RegExp;
  window: (m: RegExpExecArray, now: number) => TimeWindow;
}

const yearOf = (now: number) => new Date(now).getUTCFullYear();
const monthOf = (now: number) => new Date(now).getUTCMonth();

function relativeUnit(which: string, unit: string, now: number): TimeWindow {
  const back = which === "this" ? 0 : which === "next" ? -1 : 1;
  if (unit === "day") return daySpan(now - back * DAY_MS);
  if (unit === "month") return monthSpan(yearOf(now), monthOf(now) - back);
  if (unit === "year") return yearSpan(yearOf(now) - back);
  const week = weekSpan(now, -back);
  // A weekend is the Saturday and Sunday closing that week.
  return unit === "weekend" && week.kind === "span" ? { kind: "span", from: week.to - 2 * DAY_MS, to: week.to } : week;
}

function unitsAgo(count: string, unit: string, now: number): TimeWindow {
  const n = /^\d+$/.test(count) ? Number(count) : (WORD_NUMBERS[count] ?? 1);
  const days = UNIT_DAYS[unit];
  const at = now - n * days * DAY_MS;
  return days === 1 ? daySpan(at) : { kind: "span", from: at - (days / 2) * DAY_MS, to: at + (days / 2) * DAY_MS };
}

const COUNT = "(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|couple of|several)";

const RELATIVE: Rule[] = [
  { pattern: /\b(?:the\s+)?day\s+before\s+yesterday\b/g, window: (_m, now) => daySpan(now - 2 * DAY_MS) },
  { pattern: /\b(?:yesterday|last\s+night)\b/g, window: (_m, now) => daySpan(now - DAY_MS) },
  { pattern: /\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b/g, window: (_m, now) => daySpan(now) },
  {
    pattern: /\b(last|this|next|previous|past)\s+(week|weekend|month|year)\b/g,
    window: (m, now) => relativeUnit(m[1] === "previous" || m[1] === "past" ? "last" : m[1], m[2], now),
  },
  {
    pattern: new RegExp(`\\b${COUNT}\\s+(day|week|month|year)s?\\s+ago\\b`, "g"),
    window: (m, now) => unitsAgo(m[1], m[2], now),
  },
  {
    pattern: /\b(?:recently|lately|these\s+days)\b/g,
    window: (_m, now) => ({ kind: "span", from: now - 30 * DAY_MS, to: now + DAY_MS }),
  },
  { pattern: /\b(?:christmas)\b/g, window: () => yearlyWindow(12, 24, 26) },
  { pattern: /\b(?:new\s+year'?s?\s+eve)\b/g, window: () => yearlyWindow(12, 31) },
  { pattern: /\b(?:halloween)\b/g, window: () => yearlyWindow(10, 31) },
  { pattern: /\b(?:valentine'?s?\s+day)\b/g, window: () => yearlyWindow(2, 14) },
];

// A bare year after a preposition; chrono reads "in 2022" as nothing.
const BARE_YEAR = /\b(?:in|during|since|of|from|before|after|around|through)\s+((?:19|20)\d{2})\b(?!\s*[-/])/g;
// Month names alone ("march", "may") are also verbs: without a year or day, take them only after
// a word that makes them a time ("in May", "last June", "early March", "mid-May"). The text before
// the month is trimmed by string operations, not by `\s*-?\s*$`, which is quadratic on a run of spaces.
const MONTH_CONTEXT =
  /\b(?:in|during|since|of|from|before|after|around|through|last|this|next|early|late|mid|end\s+of|beginning\s+of)$/;

/** Whether the text before a month name ends in a word that makes the month a time. */
function monthInContext(before: string): boolean {
  let rest = before.trimEnd();
  if (rest.endsWith("-")) rest = rest.slice(0, -1).trimEnd();
  return MONTH_CONTEXT.test(rest);
}

/**
 * What chrono-node may read of a query. recheck calls some of its patterns polynomial (ReDoS test,
 * docs/reliability.md), so it never sees more than the query limit, also after NFKC has widened the
 * query (one character can become eighteen); `npm run bench:redos` measures it at this bound.
 */
export const CHRONO_MAX_CHARS = LIMITS.queryMaxChars;

/** Calendar day of a chrono component set, as UTC midnight. */
function utcDay(c: ParsedResult["start"]): number {
  return Date.UTC(c.get("year")!, c.get("month")! - 1, c.get("day")!);
}

function chronoWindow(r: ParsedResult, lowered: string): TimeWindow | null {
  const c = (k: "year" | "month" | "day") => r.start.isCertain(k);
  if (c("day") && c("month") && c("year")) {
    const from = utcDay(r.start);
    const to = r.end ? utcDay(r.end) + DAY_MS : from + DAY_MS;
    return { kind: "span", from, to: Math.max(to, from + DAY_MS) };
  }
  if (c("month") && c("year")) return monthSpan(r.start.get("year")!, r.start.get("month")! - 1);
  if (c("month") && c("day")) return yearlyWindow(r.start.get("month")!, r.start.get("day")!);
  if (c("month") && monthInContext(lowered.slice(0, r.index))) return yearlyWindow(r.start.get("month")!, 1, 31);
  return null;
}

function applyRules(rules: Rule[], lowered: string, now: number, used: boolean[], out: TimeWindow[]): void {
  for (const rule of rules) {
    for (const m of lowered.matchAll(rule.pattern)) {
      const start = m.index!,
        end = start + m[0].length;
      if (used.slice(start, end).some(Boolean)) continue;
      used.fill(true, start, end);
      out.push(rule.window(m as RegExpExecArray, now));
    }
  }
}

/** Every time window the query names, English and Chinese; [] when it names none. */
export function timeWindows(query: string, now: number): TimeWindow[] {
  const lowered = query.normalize("NFKC").toLowerCase();
  const used: boolean[] = new Array(lowered.length).fill(false);
  const out: TimeWindow[] = [];
  applyRules(RELATIVE, lowered, now, used, out);
  for (const r of casual.parse(lowered.slice(0, CHRONO_MAX_CHARS), new Date(now))) {
    if (used.slice(r.index, r.index + r.text.length).some(Boolean)) continue;
    const w = chronoWindow(r, lowered);
    if (!w) continue;
    used.fill(true, r.index, r.index + r.text.length);
    out.push(w);
  }
  applyRules([{ pattern: BARE_YEAR, window: (m) => yearSpan(Number(m[1])) }], lowered, now, used, out);
  return [...out, ...chineseTimeWindows(query, now)];
}
