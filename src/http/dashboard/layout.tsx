/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/layout
 * The page shell every dashboard page shares: head (stylesheet only, no script), navigation, the
 * language switch and the sign-out form. Hono's JSX escapes every text and attribute value, so
 * untrusted memory text is rendered as text wherever it appears.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type DashFormat, timeZoneChoices } from "./dashboard-format";
import type { DashLocale, DashMessages } from "./dashboard-messages";

export type Section = "overview" | "memories" | "entities" | "quarantine" | "devices" | "clients" | "sign-in";

export interface PageFrame {
  m: DashMessages;
  locale: DashLocale;
  /** Dates and numbers in the reader's locale and chosen time zone. */
  fmt: DashFormat;
  /** The current path and query, for the language switch. */
  here: string;
  section: Section;
  csrf?: string;
  flash?: string;
  problem?: string;
}

/** The same page in the other language. */
function switchHref(here: string, locale: DashLocale): string {
  const url = new URL(here, "http://x");
  url.searchParams.set("lang", locale === "zh" ? "en" : "zh");
  url.searchParams.delete("flash");
  return `${url.pathname}${url.search}`;
}

const LINKS: [Exclude<Section, "sign-in">, string][] = [
  ["overview", "/dashboard"],
  ["memories", "/dashboard/memories"],
  ["entities", "/dashboard/entities"],
  ["quarantine", "/dashboard/quarantine"],
  ["devices", "/dashboard/devices"],
  ["clients", "/dashboard/clients"],
];

/** The list filters the time-zone form carries over; anything else (a sign-in's `next`, a flash) is left behind. */
const KEPT_BY_ZONE_FORM = new Set(["q", "status", "category", "cursor"]);

/** The time-zone picker: a GET form back to this page (its list filters kept), like ?lang=. */
function TimeZoneForm(props: { frame: PageFrame }) {
  const { m, here, fmt } = props.frame;
  const url = new URL(here, "http://x");
  const kept = [...url.searchParams.entries()].filter(([k]) => KEPT_BY_ZONE_FORM.has(k));
  return (
    <form method="get" action={url.pathname} class="tz">
      {kept.map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <label for="tz">{m.timeZone.label}</label>
      <select id="tz" name="tz">
        {timeZoneChoices().map((z) => (
          <option value={z} selected={z === fmt.timeZone}>
            {z}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary">
        {m.timeZone.apply}
      </button>
    </form>
  );
}

export function Layout(props: { frame: PageFrame; title: string; children?: Child }) {
  const { m, locale, here, section, csrf, flash, problem } = props.frame;
  return (
    <html lang={m.htmlLang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>{`${props.title} · ${m.title}`}</title>
        <link rel="stylesheet" href="/dashboard/style.css" />
        <link rel="icon" href="/favicon.ico" sizes="16x16" />
      </head>
      <body>
        <header>
          <span class="brand">{m.title}</span>
          {csrf ? (
            <nav aria-label="main">
              {LINKS.map(([key, href]) => (
                <a href={href} aria-current={section === key ? "page" : undefined}>
                  {m.nav[key]}
                </a>
              ))}
            </nav>
          ) : null}
          <a href={switchHref(here, locale)} hreflang={locale === "zh" ? "en" : "zh"} id="switch-lang">
            {m.switchTo}
          </a>
          {csrf ? (
            <form method="post" action="/dashboard/sign-out" class="inline">
              <input type="hidden" name="csrf" value={csrf} />
              <button type="submit" class="secondary">
                {m.signOut}
              </button>
            </form>
          ) : null}
        </header>
        <main>
          {flash ? (
            <p class="flash" role="status">
              {flash}
            </p>
          ) : null}
          {problem ? (
            <p class="alert" role="alert">
              {problem}
            </p>
          ) : null}
          {props.children}
        </main>
        <footer>
          <TimeZoneForm frame={props.frame} />
        </footer>
      </body>
    </html>
  );
}

/** A POST form carrying the session's CSRF token. */
export function PostForm(props: { action: string; csrf: string; children?: Child; class?: string }) {
  return (
    <form method="post" action={props.action} class={props.class}>
      <input type="hidden" name="csrf" value={props.csrf} />
      {props.children}
    </form>
  );
}

export function StatusBadge(props: { status: string; m: DashMessages }) {
  return <span class={`badge ${props.status}`}>{props.m.status[props.status] ?? props.status}</span>;
}

/** A whole page: the doctype (standards mode) and the rendered tree. */
export function renderPage(c: Context, page: Child, status: ContentfulStatusCode = 200): Response {
  return c.html(`<!doctype html>${String(page)}`, status);
}
