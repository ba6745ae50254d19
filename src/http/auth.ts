/**
 * @module http/auth
 * Bearer authentication: `Authorization: Bearer hc_…` (an API key) or an OAuth access token →
 * Principal. Missing or bad credentials get a 401 JSON body with WWW-Authenticate, which names
 * the resource metadata (RFC 9728) when OAuth is on so clients discover sign-in by themselves.
 * Keys are compared by SHA-256 hash only; neither keys nor tokens are ever logged.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Principal } from "../access/principal";
import { type ApiKeyStore, LAST_USED_GRANULARITY_MS } from "../accounts/account-ports";
import { API_KEY_PATTERN, sha256Hex } from "../accounts/api-key-format";
import { currentTiming } from "../timing/request-timing";
import type { AppEnv } from "./app-env";
import { errorBody } from "./error-response";
import { apiKeyCache } from "./key-cache";
import { principalFromAccessToken } from "./oauth/access-token";
import { SUPPORTED_SCOPES } from "./oauth/oauth-scopes";
import { type OAuthSite, oauthSite, resourceForPath } from "./oauth/oauth-site";

export function challengeHeader(c: Context<AppEnv>, error?: string): string {
  const parts = [`Bearer realm="hippocampus"`];
  if (error) parts.push(`error="${error}"`);
  const metadata = c.get("resourceMetadataUrl");
  if (metadata) parts.push(`resource_metadata="${metadata}"`, `scope="${SUPPORTED_SCOPES.join(" ")}"`);
  return parts.join(", ");
}

function unauthorized(c: Context<AppEnv>, message: string, error?: string): Response {
  return c.json(errorBody("unauthorized", message), 401, { "WWW-Authenticate": challengeHeader(c, error) });
}

const keyCache = apiKeyCache;

export interface KeyAuth {
  principal: Principal;
  source: "cache" | "d1";
}

/**
 * The principal of an API key: from this isolate's cache when it was seen live in the last few
 * seconds, else one D1 read. The last-used stamp (minute granularity) is written after the
 * response (`background`), never on the request's path.
 */
export async function principalFromKey(
  keys: ApiKeyStore,
  presented: string,
  now: number,
  background: (p: Promise<unknown>) => void,
): Promise<KeyAuth | null> {
  const hash = await sha256Hex(presented);
  const cached = keyCache.get(hash, now);
  const row = cached ?? (await keys.findActiveByHash(hash));
  if (!row) return null;
  if (row.lastUsedAt === null || now - row.lastUsedAt >= LAST_USED_GRANULARITY_MS) {
    row.lastUsedAt = now;
    background(keys.touch(row.id, now));
  }
  if (!cached) keyCache.set(hash, row, now);
  return {
    source: cached ? "cache" : "d1",
    principal: {
      accountId: row.accountId,
      scope: row.scope === "app" ? "app" : "user",
      userId: row.userId,
      appName: row.appName,
      keyId: row.id,
      credential: `key:${row.id}`,
      canWrite: true,
    },
  };
}

/** An API key (hc_…) or, when OAuth is on, an access token for the resource this path belongs to. */
export async function principalFromBearer(
  c: Context<AppEnv>,
  credential: string,
  site: OAuthSite | null,
): Promise<Principal | null> {
  const keys = c.var.services().accounts().apiKeys;
  const background = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const timing = currentTiming();
  const started = performance.now();
  let principal: Principal | null = null;
  if (API_KEY_PATTERN.test(credential)) {
    const found = await principalFromKey(keys, credential, Date.now(), background);
    if (timing && found) timing.auth.source = found.source;
    principal = found?.principal ?? null;
  } else if (site) {
    principal = await principalFromAccessToken(c.env, site, c.req.path, credential, {
      keys,
      config: c.var.config,
      waitUntil: background,
    });
    if (timing) timing.auth.source = "oauth";
  }
  if (timing) timing.auth.ms = performance.now() - started;
  return principal;
}

/** Middleware: a request passes with a valid API key or OAuth access token as its bearer credential, else 401. */
export const requireBearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("principal")) return next();
  const site = oauthSite(c);
  const resource = site ? resourceForPath(site, c.req.path) : undefined;
  if (resource) c.set("resourceMetadataUrl", resource.metadataUrl);
  const header = c.req.header("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match)
    return unauthorized(c, "Missing bearer credentials: send Authorization: Bearer <key>, or sign in with OAuth");
  const principal = await principalFromBearer(c, match[1], site);
  if (!principal) return unauthorized(c, "The key or access token is unknown, expired or revoked", "invalid_token");
  c.set("principal", principal);
  return next();
};
