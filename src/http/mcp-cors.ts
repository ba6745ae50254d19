/**
 * @module http/mcp-cors
 * CORS for /mcp, so browser-based MCP clients can call it: preflights are answered before auth,
 * and every response (the 401 included) carries the headers such a client needs to read it —
 * Mcp-Session-Id to keep a session, WWW-Authenticate to discover OAuth. Origins come from
 * CORS_ORIGINS ("*" by default: /mcp needs a bearer token, which a page cannot borrow from the
 * person's browser). Credentials (cookies) are never allowed, and cookie routes (/dashboard) get no
 * CORS at all. An Origin outside a CORS_ORIGINS list never gets here: http/host-origin-guard.ts refuses it.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "./app-env";

export const MCP_CORS = {
  allowHeaders: ["Authorization", "Content-Type", "Mcp-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"],
  exposeHeaders: ["Mcp-Session-Id", "WWW-Authenticate", "Server-Timing"],
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  maxAge: 86_400,
} as const;

/** The allowed origin for a request's Origin header, or null when CORS_ORIGINS does not list it. */
export function allowedOrigin(origins: string[] | "*", origin: string): string | null {
  if (origins === "*") return "*";
  return origins.includes(origin) ? origin : null;
}

export const mcpCors: MiddlewareHandler<AppEnv> = (c, next) => {
  const origins = c.var.config.CORS_ORIGINS;
  return cors({
    origin: (origin) => allowedOrigin(origins, origin),
    allowHeaders: [...MCP_CORS.allowHeaders],
    exposeHeaders: [...MCP_CORS.exposeHeaders],
    allowMethods: [...MCP_CORS.allowMethods],
    maxAge: MCP_CORS.maxAge,
    credentials: false,
  })(c, next);
};
