/**
 * @module http/dashboard/dashboard-format
 * Dates and numbers in the reader's own conventions, with Intl: the locale is the first language
 * of the browser's Accept-Language that matches the page's language (en-US month-first, en-GB
 * day-first, zh-CN, zh-TW …), else the page language's default; the time zone is the one the
 * person picked (?tz=, remembered in a cookie), else UTC. The dashboard runs no script, so it
 * cannot read the browser's zone: every time it prints names its zone, so none is ever ambiguous.
 */
import type { DashLocale } from "./dashboard-messages";

export interface DashFormat {
  /** The BCP 47 locale dates and numbers are written in. */
  locale: string;
  timeZone: string;
  /** Date and time with the zone's name; "—" for none. */
  when(ms: number | null): string;
  /** The date alone (chart axes, week labels). */
  day(ms: number): string;
  number(n: number): string;
  /** A recall score, always three decimals. */
  score(n: number): string;
  /** The same instant as ISO 8601 UTC, for `<time datetime>`. */
  iso(ms: number): string;
}

const DEFAULT_LOCALE: Record<DashLocale, string> = { en: "en-US", zh: "zh-CN" };
const TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** The reader's locale for a page in `page`: the first Accept-Language tag of that language Intl supports. */
export function readerLocale(acceptLanguage: string | undefined, page: DashLocale): string {
  for (const part of (acceptLanguage ?? "").split(",").slice(0, 20)) {
    const tag = part.split(";")[0]?.trim() ?? "";
    if (!TAG.test(tag) || tag.split("-")[0]?.toLowerCase() !== page) continue;
    const supported = Intl.DateTimeFormat.supportedLocalesOf([tag]);
    if (supported.length > 0) return supported[0] as string;
  }
  return DEFAULT_LOCALE[page];
}

/** A time zone Intl knows (IANA name or UTC), else null. */
export function validTimeZone(zone: string | undefined): string | null {
  if (!zone || zone.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Every zone the select offers: UTC first, then Intl's own list. */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...zones.filter((z) => z !== "UTC")];
}

export function dashFormat(locale: string, timeZone: string): DashFormat {
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  });
  const zoneName = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: "short" });
  const dayOnly = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric", timeZone });
  const numbers = new Intl.NumberFormat(locale);
  const scores = new Intl.NumberFormat(locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 });
  const zoneOf = (ms: number) => zoneName.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
  return {
    locale,
    timeZone,
    when: (ms) => (ms === null ? "—" : `${dateTime.format(ms)} ${zoneOf(ms)}`),
    day: (ms) => dayOnly.format(ms),
    number: (n) => numbers.format(n),
    score: (n) => scores.format(n),
    iso: (ms) => new Date(ms).toISOString(),
  };
}
