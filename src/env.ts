/**
 * @module env
 * The Worker's bindings and raw vars, as wrangler.toml declares them. Vars are parsed once by config.ts.
 */
export interface Env {
  DB: D1Database;
  USER_MEMORY: DurableObjectNamespace<import("./durable/user-memory").UserMemory>;
  SSE_SESSION: DurableObjectNamespace;
  AI?: Ai;
  VECTORIZE?: VectorizeIndex;
  /** OAuth grants, tokens and clients (workers-oauth-provider); without it only API keys work. */
  OAUTH_KV?: KVNamespace;
  /** Rate limits on the OAuth endpoints (http/oauth/rate-limit.ts). */
  OAUTH_RATE_LIMITER?: RateLimit;
  OAUTH_SIGNIN_LIMITER?: RateLimit;
  /** Secret (wrangler secret put): single-user sign-in on the authorization page. */
  OAUTH_PASSPHRASE?: string;
  [key: string]: unknown;
}
