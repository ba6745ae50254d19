/**
 * @module http/oauth/oauth-site
 * The OAuth 2.1 authorization server (Cloudflare's workers-oauth-provider) for one public origin,
 * with its two protected resources, `<origin>/mcp` and `<origin>/sse`. The library fixes issuer
 * and resources at construction, so one site is built per origin (PUBLIC_URL pins it) and
 * cached. No OAUTH_KV binding, or an origin OAuth refuses (plain http off loopback): no site, and
 * the Worker serves API keys only.
 */
import { OAuthAuthorizationServer, OAuthError, OAuthResourceServer } from "@cloudflare/workers-oauth-provider";
import type { Context } from "hono";
import { loadConfig } from "../../config";
import { consoleLogger } from "../../console-logger";
import type { Env } from "../../env";
import type { AppEnv } from "../app-env";
import type { AccountStoresFor } from "../route-services";
import { type GrantProps, grantPropsSchema } from "./grant-props";
import { MEMORY_READ, MEMORY_WRITE, SUPPORTED_SCOPES } from "./oauth-scopes";
import { isCredentialLive } from "./sign-in";

export const AUTHORIZE_PATH = "/authorize";
export const TOKEN_PATH = "/oauth/token";
export const REGISTER_PATH = "/oauth/register";
/** The MCP transports; each is its own RFC 9728 resource, and /sse covers /sse/message. */
export const PROTECTED_PATHS = ["/mcp", "/sse"] as const;

/** A grant lives while it is used: each refresh moves its expiry this far out (the library's default is a fixed 30 days). */
export const REFRESH_IDLE_TTL_SECONDS = 30 * 24 * 3600;
const MAX_CACHED_SITES = 16;

export interface ProtectedResource {
  path: string;
  /** Canonical resource URI: the token audience. */
  resource: string;
  metadataUrl: string;
  host: OAuthResourceServer<Env, GrantProps>;
}

export interface OAuthSite {
  origin: string;
  server: OAuthAuthorizationServer<Env>;
  resources: ProtectedResource[];
}

/**
 * Refresh (and code exchange) refuse a grant whose key was revoked; the library then deletes the
 * grant. The library hands the callback the env only, hence the stores are looked up from it.
 */
async function refuseEndedCredential(
  accountsFor: AccountStoresFor,
  options: { props: unknown; env: Env },
): Promise<void> {
  const props = grantPropsSchema.safeParse(options.props);
  const { env } = options;
  if (props.success && (await isCredentialLive(accountsFor(env).apiKeys, loadConfig(env), props.data))) return;
  throw new OAuthError("invalid_grant", {
    description: "The key this grant was made with was revoked (or the passphrase changed): connect again",
    internal: { category: "hippocampus", reason: "credential_ended" },
  });
}

/** Logs the failed check, never the request: token endpoint bodies carry codes and refresh tokens. */
function logOAuthError(error: { code: string; status: number; internal: { category: string; reason: string } }): void {
  consoleLogger.warn("oauth error response", {
    code: error.code,
    status: error.status,
    category: error.internal.category,
    reason: error.internal.reason,
  });
}

function buildResource(server: OAuthAuthorizationServer<Env>, origin: string, path: string): ProtectedResource {
  const resource = `${origin}${path}`;
  const host = new OAuthResourceServer<Env, GrantProps>({
    resourceMetadata: {
      resource,
      authorization_servers: [origin],
      bearer_methods_supported: ["header"],
      resource_name: `Hippocampus memory (${path})`,
    },
    // Saving is basic use of a memory server, so clients ask for both; the person may grant read only.
    requiredScopes: [MEMORY_READ, MEMORY_WRITE],
    validateToken: (env) => (res, token) => server.validateToken<GrantProps>(res, token, env),
    // Only the metadata document is served through this host: /mcp and /sse authenticate in http/auth.ts.
    handler: { fetch: () => new Response(null, { status: 404 }) },
  });
  return { path, resource, metadataUrl: `${origin}/.well-known/oauth-protected-resource${path}`, host };
}

function buildSite(origin: string, accountsFor: AccountStoresFor): OAuthSite {
  const server = new OAuthAuthorizationServer<Env>({
    issuer: origin,
    resources: PROTECTED_PATHS.map((p) => `${origin}${p}`),
    defaultResource: `${origin}${PROTECTED_PATHS[0]}`,
    authorizeEndpoint: AUTHORIZE_PATH,
    tokenEndpoint: TOKEN_PATH,
    clientRegistrationEndpoint: REGISTER_PATH,
    scopesSupported: [...SUPPORTED_SCOPES],
    clientIdMetadataDocumentEnabled: true,
    // Cursor signs in through cursor://anysphere.cursor-mcp/oauth/callback (RFC 8252 §7.1). The code
    // is PKCE-bound (S256, required of public clients) and the page names the scheme as a local app.
    allowPrivateUseRedirectUris: true,
    refreshTokenIdleTTL: REFRESH_IDLE_TTL_SECONDS,
    tokenExchangeCallback: (options) => refuseEndedCredential(accountsFor, options),
    onError: logOAuthError,
  });
  return { origin, server, resources: PROTECTED_PATHS.map((p) => buildResource(server, origin, p)) };
}

const sites = new Map<string, OAuthSite | null>();

/**
 * The OAuth site serving a request, or null when OAuth is off for this deployment or origin. A site
 * is cached per origin and keeps the account stores' factory of the request that built it (one per
 * app: the composition root's), never the request itself.
 */
export function oauthSite(c: Context<AppEnv>): OAuthSite | null {
  if (!c.env.OAUTH_KV) return null;
  const configured = c.var.config.PUBLIC_URL;
  const origin = new URL(configured ?? c.req.url).origin;
  if (sites.has(origin)) return sites.get(origin)!;
  // Requests choose the origin (Host header) when PUBLIC_URL is unset: keep the cache bounded.
  if (sites.size >= MAX_CACHED_SITES) sites.clear();
  let site: OAuthSite | null = null;
  try {
    site = buildSite(origin, c.var.accountsFor);
  } catch (err) {
    consoleLogger.warn("oauth disabled for this origin; API keys still work", { origin, reason: String(err) });
  }
  sites.set(origin, site);
  return site;
}

/** The REST API (/v1/export, /v1/import) serves the same memory with the same scopes as /mcp: its tokens work there. */
const API_PREFIX = "/v1/";

/** The protected resource covering a request path (/mcp, /sse, /sse/message, /v1/*), if any. */
export function resourceForPath(site: OAuthSite, path: string): ProtectedResource | undefined {
  const target = path.startsWith(API_PREFIX) ? "/mcp" : path;
  return site.resources.find((r) => target === r.path || target.startsWith(`${r.path}/`));
}
