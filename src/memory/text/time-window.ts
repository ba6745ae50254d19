/**
 * @module memory/text/time-window
 * The time windows a query can name ("in May 2023", "last week", 「5月2日」) and UTC calendar
 * helpers to build them. A window either spans absolute time or recurs every year (a date given
 * without a year). Pure.
 */

export const DAY_MS = 86_400_000;

export type TimeWindow =
  /** Absolute span [from, to) in epoch milliseconds. */
  | { kind: "span"; from: number; to: number }
  /** Every year: `month` 1-12, days `fromDay`..`toDay` inclusive. */
  | { kind: "yearly"; month: number; fromDay: number; toDay: number };

/** How far past a window's edges a memory still counts as inside, in days. */
export interface WindowMargins {
  /** Before the start: time zones and "late that night" entries. */
  beforeDays: number;
  /** After the end: an event is often told (and saved) days after it happened. */
  afterDays: number;
}

export function dayStart(t: number): number {
  return Math.floor(t / DAY_MS) * DAY_MS;
}

export function daySpan(t: number, days = 1): TimeWindow {
  const from = dayStart(t);
  return { kind: "span", from, to: from + days * DAY_MS };
}

/** Calendar month `month0` (0-11, may overflow into other years) of `year`. */
export function monthSpan(year: number, month0: number): TimeWindow {
  return { kind: "span", from: Date.UTC(year, month0, 1), to: Date.UTC(year, month0 + 1, 1) };
}

export function yearSpan(year: number): TimeWindow {
  return { kind: "span", from: Date.UTC(year, 0, 1), to: Date.UTC(year + 1, 0, 1) };
}

/** The Monday-based week containing `t`, shifted by `offsetWeeks`. */
export function weekSpan(t: number, offsetWeeks: number): TimeWindow {
  const start = dayStart(t);
  const weekday = (new Date(start).getUTCDay() + 6) % 7;
  const from = start - weekday * DAY_MS + offsetWeeks * 7 * DAY_MS;
  return { kind: "span", from, to: from + 7 * DAY_MS };
}

export function yearlyWindow(month: number, fromDay: number, toDay = fromDay): TimeWindow {
  return { kind: "yearly", month, fromDay, toDay };
}

/** True when `t` falls inside the window, widened by the margins. */
export function windowContains(w: TimeWindow, t: number, m: WindowMargins): boolean {
  if (w.kind === "span") return t >= w.from - m.beforeDays * DAY_MS && t < w.to + m.afterDays * DAY_MS;
  const year = new Date(t).getUTCFullYear();
  // Check the occurrence in t's year and the one before (a late-December window read in January).
  for (const y of [year, year - 1]) {
    const from = Date.UTC(y, w.month - 1, w.fromDay);
    const to = Date.UTC(y, w.month - 1, w.toDay + 1);
    if (t >= from - m.beforeDays * DAY_MS && t < to + m.afterDays * DAY_MS) return true;
  }
  return false;
}
