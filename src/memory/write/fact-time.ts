/**
 * @module memory/write/fact-time
 * When an extracted fact happens: a time the fact names relative to the conversation ("next month",
 * "last Friday", 「下个月」「上周三」) resolved against the conversation's date, else the conversation's
 * date itself (what `summarize_conversation` gave every fact before). The expression is read by the
 * same rules recall uses for queries (memory/text/time-expressions.ts), after this module's own
 * weekday and ahead-of-time rules ("next Friday", 「上周三」, "next month", 「下个月」, 「明天」), which
 * recall's past-minded rules do not read; a named span's first day is the event time. Pure.
 */
import { namedDay } from "../text/relative-dates";
import { timeWindows } from "../text/time-expressions";

/** A span wider than this (a bare year, "recently") does not date a fact more precisely than its conversation. */
const WIDEST_SPAN_DAYS = 31;
const DAY_MS = 86_400_000;

const EN_DAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const ZH_DAYS = "日一二三四五六";
/** "last Friday", "next Monday", "this Saturday"; 「上周三」「下周五」「这周六」「周日」「下星期一」. */
// A recurring day (「每周三」, "every Friday") dates nothing.
const EN_WEEKDAY = /\b(last|next|this)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/i;
const ZH_WEEKDAY = /(?<!每)(上|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天])/;
const EN_NEXT = /\bnext\s+(week|month)\b|\btomorrow\b/i;
const ZH_NEXT = /下(?:个)?(?:周|星期|礼拜)(?![一二三四五六日天])|下个?月|明天|后天/;

const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
const dayStart = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

/** A weekday relative to the conversation: `offset` weeks from its week (Monday first), on `weekday` (0 = Sunday). */
function weekdayOf(at: number, offset: number, weekday: number): string {
  const today = new Date(at).getUTCDay();
  const monday = dayStart(at) - ((today + 6) % 7) * DAY_MS;
  return day(monday + offset * 7 * DAY_MS + ((weekday + 6) % 7) * DAY_MS);
}

function weekdayTime(content: string, at: number): string | null {
  const en = EN_WEEKDAY.exec(content);
  if (en) {
    const offset = { last: -1, next: 1, this: 0 }[en[1].toLowerCase() as "last" | "next" | "this"];
    return weekdayOf(at, offset, EN_DAYS.indexOf(en[2].toLowerCase()));
  }
  const zh = ZH_WEEKDAY.exec(content);
  if (!zh) return null;
  const offset = zh[1] === "上" ? -1 : zh[1] === "下" ? 1 : 0;
  return weekdayOf(at, offset, zh[2] === "天" ? 0 : ZH_DAYS.indexOf(zh[2]));
}

/** Ahead of the conversation: tomorrow, next week (its Monday), next month (its first day). */
function aheadTime(content: string, at: number): string | null {
  const m = EN_NEXT.exec(content)?.[0].toLowerCase() ?? ZH_NEXT.exec(content)?.[0];
  if (m === undefined) return null;
  if (m === "tomorrow" || m === "明天") return day(dayStart(at) + DAY_MS);
  if (m === "后天") return day(dayStart(at) + 2 * DAY_MS);
  const d = new Date(at);
  if (m.includes("month") || m.includes("月")) return day(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  return weekdayOf(at, 1, 1);
}

/**
 * The fact's event time (ISO 8601), given the conversation's; undefined when the conversation has none
 * (saveMemory then reads the words from now). A day chrono-node reads in the conversation's zone
 * (text/relative-dates.ts) comes first, then this module's rules, then recall's spans.
 */
export function factEventTime(
  content: string,
  conversationTime: string | undefined,
  timeZone = "UTC",
): string | undefined {
  if (conversationTime === undefined) return undefined;
  const at = Date.parse(conversationTime);
  if (Number.isNaN(at)) return conversationTime;
  const named = namedDay(content, { at, timeZone })?.day ?? weekdayTime(content, at) ?? aheadTime(content, at);
  if (named !== null) return named;
  const span = timeWindows(content, at).find(
    (w) => w.kind === "span" && w.to - w.from <= WIDEST_SPAN_DAYS * DAY_MS && w.from !== at,
  );
  if (!span || span.kind !== "span") return conversationTime;
  return new Date(span.from).toISOString().slice(0, 10);
}
