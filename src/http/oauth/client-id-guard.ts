/**
 * @module http/oauth/client-id-guard
 * Refuses an OAuth client_id too long to be a key in OAUTH_KV before the OAuth library looks it up:
 * the library reads `client:<id>` from KV, and KV rejects keys over 512 bytes with an error that
 * surfaced as a 500. Generated ids are 16 characters and metadata-document URLs are short, so the
 * cap only turns garbage into the invalid_request a client can act on. Found by the reliability
 * run's fuzzer (docs/reliability.md).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { errorPage } from "./authorize";
import { consentMessages, pickLocale } from "./consent-messages";

/** KV's key limit (512 bytes) minus room for the library's `client:` prefix. */
export const CLIENT_ID_MAX_BYTES = 400;

const encoder = new TextEncoder();

export function clientIdTooLong(id: string | null | undefined): boolean {
  return typeof id === "string" && encoder.encode(id).byteLength > CLIENT_ID_MAX_BYTES;
}

/** The client id of HTTP Basic client authentication (`id:secret`, each form-url-encoded), if any. */
function basicClientId(header: string | undefined): string | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "");
  if (!m) return null;
  try {
    return atob(m[1]).split(":")[0];
  } catch {
    return null;
  }
}

const tooLong = `client_id must be at most ${CLIENT_ID_MAX_BYTES} bytes`;

/** Token endpoint: client_id from a form body or Basic auth; answers in the OAuth error shape. */
export const guardTokenClientId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const form = (c.req.header("content-type") ?? "").includes("application/x-www-form-urlencoded")
    ? new URLSearchParams(new TextDecoder().decode(await c.req.raw.clone().arrayBuffer()))
    : null;
  if (clientIdTooLong(form?.get("client_id")) || clientIdTooLong(basicClientId(c.req.header("authorization"))))
    return c.json({ error: "invalid_request", error_description: tooLong }, 400);
  return next();
};

/** Authorization page: the same check on the query's client_id, answered as the page's own error. */
export const guardAuthorizeClientId: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!clientIdTooLong(c.req.query("client_id"))) return next();
  const locale = pickLocale(c.req.query("lang"), c.req.header("accept-language"));
  return errorPage(locale, 400, consentMessages(locale).invalidRequest, tooLong);
};
