/**
 * @module http/dashboard/dashboard-context
 * What every dashboard handler shares: security headers (a CSP without any script), the locale
 * (LOCALE, switched with ?lang= and remembered in a cookie), the session guard, the CSRF check
 * of every form, and calls into the signed-in person's Durable Object.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { withMemory } from "../../access/user-memory-client";
import type { RpcResult, UserMemory } from "../../durable/user-memory";
import { MemoryError } from "../../memory/errors";
import type { Scope } from "../../memory/types";
import type { AppEnv } from "../app-env";
import { type DashFormat, dashFormat, readerLocale, validTimeZone } from "./dashboard-format";
import { type DashLocale, dashMessages } from "./dashboard-messages";
import { currentSession, type DashSession, sameToken } from "./dashboard-session";
import type { PageFrame, Section } from "./layout";
import { DASHBOARD_HOME, signInFor } from "./return-to";

const LANG_COOKIE = "hc_lang";
const ZONE_COOKIE = "hc_tz";

/** No script at all; styles only from our stylesheet; forms post only here; never framed. */
export const DASHBOARD_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const dashboardHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header("Content-Security-Policy", DASHBOARD_CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  // same-origin, not no-referrer: under no-referrer Chromium sends `Origin: null` with every form
  // post, which the Origin check below must refuse. Other sites still get no referrer at all.
  c.header("Referrer-Policy", "same-origin");
  if (!c.res.headers.has("cache-control")) c.header("Cache-Control", "no-store");
};

export function localeOf(c: Context<AppEnv>): DashLocale {
  const asked = c.req.query("lang");
  if (asked === "en" || asked === "zh") {
    setCookie(c, LANG_COOKIE, asked, { path: "/dashboard", sameSite: "Lax", secure: true, maxAge: 365 * 86_400 });
    return asked;
  }
  const kept = getCookie(c, LANG_COOKIE);
  if (kept === "en" || kept === "zh") return kept;
  return c.var.config.LOCALE;
}

/** The zone the reader chose on a page (remembered in a cookie), if any: an edit's relative dates are read in it. */
export function readerZone(c: Context<AppEnv>): string | undefined {
  return validTimeZone(getCookie(c, ZONE_COOKIE)) ?? undefined;
}

/** The reader's formats: Accept-Language within the page's language, the zone from ?tz= (remembered) or UTC. */
export function formatOf(c: Context<AppEnv>, locale: DashLocale): DashFormat {
  const asked = validTimeZone(c.req.query("tz"));
  if (asked)
    setCookie(c, ZONE_COOKIE, asked, { path: "/dashboard", sameSite: "Lax", secure: true, maxAge: 365 * 86_400 });
  const zone = asked ?? validTimeZone(getCookie(c, ZONE_COOKIE)) ?? "UTC";
  return dashFormat(readerLocale(c.req.header("accept-language"), locale), zone);
}

export function frameOf(
  c: Context<AppEnv>,
  section: Section,
  session: DashSession | null,
  problem?: string,
): PageFrame {
  const locale = localeOf(c);
  const m = dashMessages(locale);
  const url = new URL(c.req.url);
  const flashKey = c.req.query("flash");
  return {
    m,
    locale,
    fmt: formatOf(c, locale),
    here: `${url.pathname}${url.search}`,
    section,
    csrf: session?.csrf,
    flash: flashKey ? m.flash[flashKey] : undefined,
    problem,
  };
}

/** The session, or a redirect to sign-in (which brings a page asked for by GET back afterwards). */
export async function requireSession(c: Context<AppEnv>): Promise<DashSession | Response> {
  const session = await currentSession(c);
  if (session) return session;
  const url = new URL(c.req.url);
  return c.redirect(c.req.method === "GET" ? signInFor(`${url.pathname}${url.search}`) : DASHBOARD_HOME, 303);
}

/** A form post must come from our own pages: same Origin (when the browser sends one) and the session's token. */
export async function checkForm(c: Context<AppEnv>, expected: string): Promise<Record<string, string>> {
  const origin = c.req.header("origin");
  if (origin && origin !== new URL(c.req.url).origin)
    throw new MemoryError("forbidden", "Cross-site form posts are refused");
  const body = await c.req.parseBody();
  const form: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === "string") form[k] = v;
  if (!(await sameToken(form.csrf ?? "", expected)))
    throw new MemoryError("forbidden", "The form expired: reload the page");
  return form;
}

/** Calls the signed-in person's Durable Object (their own memory only). */
export function callMemory<T>(
  c: Context<AppEnv>,
  session: DashSession,
  call: (stub: DurableObjectStub<UserMemory>, scope: Scope) => Promise<RpcResult<T>>,
): Promise<T> {
  const caller = { principal: session.principal, agentHeader: null, sessionHeader: null };
  return withMemory({ env: c.env, caller }, {}, call);
}
