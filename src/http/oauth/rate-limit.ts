/**
 * @module http/oauth/rate-limit
 * Per-client-address limits on the authorization endpoints (an IPv6 client counted by its /64), on Cloudflare's rate limiting binding
 * (fixed windows counted at the edge location; miniflare simulates it locally, so dev and tests
 * exercise the same code). Two bindings: OAUTH_SIGNIN_LIMITER for credential attempts, one
 * budget per address shared by every sign-in surface (POST /authorize and POST /dashboard/sign-in,
 * SIGN_IN_BUCKET), OAUTH_RATE_LIMITER for the rest. A deployment without the binding is not limited.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env";
import { addressBucket } from "../client-address";

export type LimiterBinding = "OAUTH_RATE_LIMITER" | "OAUTH_SIGNIN_LIMITER";

/** Windows are at most a minute long, so a minute is always enough to wait. */
export const RETRY_AFTER_SECONDS = 60;

/**
 * Cloudflare sets CF-Connecting-IP at the edge (a client cannot forge it there); local runs share one
 * bucket. Counted by addressBucket: an IPv6 client by its /64, which one person holds whole.
 */
export function clientIp(c: Context<AppEnv>): string {
  return addressBucket(c.req.header("cf-connecting-ip") ?? "local");
}

/** The one bucket of every surface that takes a credential: attempts on either count together. */
export const SIGN_IN_BUCKET = "sign-in";

export function rateLimit(
  binding: LimiterBinding,
  bucket: string,
  refuse: (c: Context<AppEnv>) => Response | Promise<Response>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const limiter = c.env[binding] as RateLimit | undefined;
    if (!limiter) return next();
    const { success } = await limiter.limit({ key: `${bucket}:${clientIp(c)}` });
    if (success) return next();
    const response = await refuse(c);
    response.headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return response;
  };
}

/** The OAuth error shape (RFC 6749 §5.2), which token and registration clients parse. */
export function oauthTooMany(): Response {
  return Response.json(
    {
      error: "temporarily_unavailable",
      error_description: `Too many requests from this address; retry after ${RETRY_AFTER_SECONDS} seconds`,
    },
    { status: 429, headers: { "Cache-Control": "no-store" } },
  );
}
