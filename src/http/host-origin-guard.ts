/**
 * @module http/host-origin-guard
 * DNS-rebinding protection and the Origin allowlist, in front of every route.
 *
 * - LOOPBACK_ONLY=on (wrangler dev, reached on 127.0.0.1): a `Host` that is not localhost,
 *   127.0.0.1 or [::1] is refused, and so is an `Origin` that is neither loopback nor listed in
 *   CORS_ORIGINS — a page on evil.example whose name resolves to 127.0.0.1 reaches nothing. The
 *   checks are the MCP SDK's own (`validateHostHeader`, `validateOriginHeader`, port-agnostic).
 * - A deployment with CORS_ORIGINS set to a list: an `Origin` outside it (and not the server's own)
 *   is refused. CORS_ORIGINS unset ("*"): every Origin may call, since every such route needs a
 *   bearer token a page cannot borrow from the person's browser.
 *
 * Requests without `Origin` (mcp-remote, SDK clients, curl) pass. The cookie routes (the dashboard
 * and the OAuth sign-in page) keep their own form-post Origin checks; the deployment rule skips
 * them, and on loopback their `Origin: null` (the consent page's no-referrer form post) is left to
 * those checks. A refusal is a 403 with the JSON error body every route uses.
 */
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { errorBody } from "./error-response";
import { AUTHORIZE_PATH } from "./oauth/oauth-site";

const LOOPBACK = localhostAllowedHostnames();

/** Routes whose form posts check Origin themselves (same origin, or the session's CSRF token). */
export function isCookieRoute(path: string): boolean {
  return path === AUTHORIZE_PATH || path === "/dashboard" || path.startsWith("/dashboard/");
}

/** Why a request is refused, or null when it may go on. */
export function hostOriginProblem(
  request: { host: string | undefined; origin: string | undefined; path: string; selfOrigin: string },
  settings: { loopbackOnly: boolean; corsOrigins: string[] | "*" },
): string | null {
  const { host, origin, path, selfOrigin } = request;
  const listed = (o: string) => settings.corsOrigins !== "*" && settings.corsOrigins.includes(o);
  if (settings.loopbackOnly) {
    const hostCheck = validateHostHeader(host, LOOPBACK);
    if (!hostCheck.ok) return `${hostCheck.message}: this server answers on localhost, 127.0.0.1 or [::1] only`;
    if (origin === undefined || listed(origin) || (origin === "null" && isCookieRoute(path))) return null;
    const originCheck = validateOriginHeader(origin, LOOPBACK);
    return originCheck.ok ? null : `${originCheck.message}: not a loopback origin, nor listed in CORS_ORIGINS`;
  }
  if (origin === undefined || settings.corsOrigins === "*" || isCookieRoute(path)) return null;
  if (origin === selfOrigin || listed(origin)) return null;
  return `Origin ${origin} is not listed in CORS_ORIGINS`;
}

function problemFor(c: Context<AppEnv>): string | null {
  const config = c.var.config;
  const url = new URL(c.req.url);
  return hostOriginProblem(
    // The URL's host is the Host the runtime was given; the header is read first where both exist.
    {
      host: c.req.header("host") ?? url.host,
      origin: c.req.header("origin"),
      path: c.req.path,
      selfOrigin: url.origin,
    },
    { loopbackOnly: config.LOOPBACK_ONLY === "on", corsOrigins: config.CORS_ORIGINS },
  );
}

export const guardHostAndOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const problem = problemFor(c);
  if (problem !== null) return c.json(errorBody("forbidden", problem), 403);
  await next();
};
