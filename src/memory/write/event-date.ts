/**
 * @module memory/write/event-date
 * The write rule for dates: relative time in a memory's words ("tomorrow", 「下周五」) becomes its
 * `event_time`, the day those words name, read against the message's date (a conversation's
 * `event_time`, an imported line's `created_at`) or now, in the person's time zone (the call's
 * `time_zone`, else the deployment's TIME_ZONE, else UTC). The text keeps the person's words. An
 * `event_time` given with the memory wins: whoever gave it has resolved it. Pure, over
 * memory/text/relative-dates.ts.
 */
import { type DateAnchor, namedDay } from "../text/relative-dates";

/** The zone relative words are read in: the call's, else the deployment's, else UTC. */
export function zoneFor(asked: string | undefined, configured: string | undefined): string {
  return asked ?? configured ?? "UTC";
}

/** The memory's event time (epoch ms): the one given, else the day its words name, else null. */
export function eventTimeOf(text: string, given: string | undefined, anchor: DateAnchor): number | null {
  if (given !== undefined) return Date.parse(given);
  const named = namedDay(text, anchor);
  return named === null ? null : Date.parse(named.day);
}

/**
 * An edit's event time: the one given; else, when the new text names a day in other words than the
 * old text did ("tomorrow" → "on the 20th"), that day read from the edit's time; else unchanged
 * (undefined), so correcting a typo in "dinner tomorrow" a week later does not move the dinner.
 */
export function editedEventTime(
  before: string,
  after: string,
  given: string | undefined,
  anchor: DateAnchor,
): number | undefined {
  if (given !== undefined) return Date.parse(given);
  const now = namedDay(after, anchor);
  if (now === null) return undefined;
  const was = namedDay(before, anchor);
  if (was !== null && was.expression.toLowerCase() === now.expression.toLowerCase()) return undefined;
  return Date.parse(now.day);
}
