/**
 * @module memory/manage/calendar-weeks
 * The one home of how the activity counts cut time into weeks: ISO weeks, Monday 00:00 UTC to the
 * next Monday. The epoch (1970-01-01) was a Thursday, so week n starts 3 days before n × 7 days.
 */
export const WEEK_MS = 7 * 24 * 3600_000;
/** Added to an instant before dividing by WEEK_MS, so weeks turn on Mondays. */
export const MONDAY_SHIFT_MS = 3 * 24 * 3600_000;

/** The week an instant falls in. */
export function weekOf(ms: number): number {
  return Math.floor((ms + MONDAY_SHIFT_MS) / WEEK_MS);
}

/** The first instant of a week (a Monday, 00:00 UTC). */
export function weekStart(week: number): number {
  return week * WEEK_MS - MONDAY_SHIFT_MS;
}
