/**
 * @module http/oauth/oauth-routes
 * Mounts OAuth on the Hono app: discovery documents (RFC 8414 authorization server, RFC 9728 for
 * /mcp and /sse), the token endpoint (also RFC 7009 revocation), dynamic client registration,
 * and the authorization page. Protocol endpoints are served by the library; /authorize is ours.
 * Without an OAuth site (no OAUTH_KV) they answer 404 and clients fall back to API keys.
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../app-env";
import { errorBody } from "../error-response";
import { errorPage, showAuthorization, submitAuthorization } from "./authorize";
import { guardAuthorizeClientId, guardTokenClientId } from "./client-id-guard";
import { consentMessages, pickLocale } from "./consent-messages";
import { answerKvDailyLimit } from "./kv-daily-limit";
import { AUTHORIZE_PATH, oauthSite, PROTECTED_PATHS, REGISTER_PATH, TOKEN_PATH } from "./oauth-site";
import { oauthTooMany, rateLimit, SIGN_IN_BUCKET } from "./rate-limit";
import { guardRegistration } from "./registration-guard";

/** Token, registration and consent bodies are a few hundred bytes; client metadata a few KB. */
const OAUTH_BODY_MAX_BYTES = 16 * 1024;

const limitOAuthBody = bodyLimit({
  maxSize: OAUTH_BODY_MAX_BYTES,
  onError: (c) => c.json(errorBody("payload_too_large", `Request body exceeds ${OAUTH_BODY_MAX_BYTES} bytes`), 413),
});

function notConfigured(c: Context<AppEnv>): Response {
  return c.json(
    errorBody(
      "not_found",
      "OAuth is not enabled on this deployment (no OAUTH_KV binding, or plain http on a public host); use an API key",
    ),
    404,
  );
}

function toAuthorizationServer(c: Context<AppEnv>): Promise<Response> | Response {
  const site = oauthSite(c);
  if (!site) return notConfigured(c);
  return site.server.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

function toResourceMetadata(path: string) {
  return (c: Context<AppEnv>): Promise<Response> | Response => {
    const resource = oauthSite(c)?.resources.find((r) => r.path === path);
    if (!resource) return notConfigured(c);
    return resource.host.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
  };
}

function pageTooMany(c: Context<AppEnv>): Response {
  const locale = pickLocale(c.req.query("lang"), c.req.header("accept-language"));
  return errorPage(locale, 429, consentMessages(locale).tooMany);
}

export function registerOAuthRoutes(app: Hono<AppEnv>): void {
  app.all("/.well-known/oauth-authorization-server", toAuthorizationServer);
  for (const path of PROTECTED_PATHS) app.all(`/.well-known/oauth-protected-resource${path}`, toResourceMetadata(path));
  app.all(
    TOKEN_PATH,
    answerKvDailyLimit("json"),
    rateLimit("OAUTH_RATE_LIMITER", "token", oauthTooMany),
    limitOAuthBody,
    guardTokenClientId,
    toAuthorizationServer,
  );
  app.all(
    REGISTER_PATH,
    answerKvDailyLimit("json"),
    rateLimit("OAUTH_RATE_LIMITER", "register", oauthTooMany),
    limitOAuthBody,
    guardRegistration,
    toAuthorizationServer,
  );
  app.get(
    AUTHORIZE_PATH,
    answerKvDailyLimit("page"),
    rateLimit("OAUTH_RATE_LIMITER", "authorize", pageTooMany),
    guardAuthorizeClientId,
    showAuthorization,
  );
  app.post(
    AUTHORIZE_PATH,
    answerKvDailyLimit("page"),
    rateLimit("OAUTH_SIGNIN_LIMITER", SIGN_IN_BUCKET, pageTooMany),
    limitOAuthBody,
    submitAuthorization,
  );
}
