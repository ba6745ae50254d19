/**
 * @module http/oauth/kv-daily-limit
 * OAuth steps that write OAUTH_KV (the authorization page, the token and registration endpoints) answer
 * KV's daily-limit refusal (platform-limits/kv-daily-limits.ts) with a clear 429 naming the limit and
 * the 00:00 UTC reset, with Retry-After, instead of an internal error: JSON for the protocol endpoints
 * (`error`, and `error_description` for OAuth clients), the error page for a person. Hono hands a
 * handler's error to the app's onError and sets `c.error`; this middleware replaces that answer.
 */
import type { Context, MiddlewareHandler } from "hono";
import { consoleLogger } from "../../console-logger";
import { nextUtcMidnight } from "../../platform-limits/daily-usage";
import { kvDailyLimitError } from "../../platform-limits/kv-daily-limits";
import type { AppEnv } from "../app-env";
import { errorBody } from "../error-response";
import { errorPage } from "./authorize";
import { consentMessages, pickLocale } from "./consent-messages";

/** Seconds until 00:00 UTC, when KV's daily allowance resets. */
export const secondsToReset = (now: number) => Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));

function page(c: Context<AppEnv>, retryAfter: number): Response {
  const locale = pickLocale(c.req.query("lang"), c.req.header("accept-language"));
  return errorPage(
    locale,
    429,
    consentMessages(locale).kvDailyLimit,
    undefined,
    new Headers({ "Retry-After": `${retryAfter}` }),
  );
}

/** Replaces the answer of a step KV refused for its daily limit; any other answer passes unchanged. */
export function answerKvDailyLimit(as: "json" | "page"): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const refused = c.error ? kvDailyLimitError(c.error) : null;
    if (!refused) return;
    consoleLogger.warn("OAUTH_KV refused a write: the account's KV writes of the day are spent", { path: c.req.path });
    const retryAfter = secondsToReset(Date.now());
    c.res = undefined;
    c.res =
      as === "page"
        ? page(c, retryAfter)
        : c.json(
            { ...errorBody(refused.code, refused.message, refused.field), error_description: refused.message },
            429,
            {
              "Retry-After": `${retryAfter}`,
            },
          );
  };
}
