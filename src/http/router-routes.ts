/**
 * @module http/router-routes
 * The memory router's HTTP surface (docs/router.md): `POST /v1/chat/completions` and
 * `GET /v1/models` (OpenAI's API) and `POST /v1/messages` (Anthropic's), behind the same
 * credentials as /mcp (a user key, an OAuth access token, or an app key naming its end user;
 * Anthropic clients may send the key as `x-api-key`), every error in the API's own shape, the body
 * bounded by ROUTER_MAX_BODY_BYTES and the recall's time in Server-Timing. CORS as on /mcp
 * (CORS_ORIGINS, never credentials), so browser chat apps can call it and read the memory headers.
 * The turn itself is router/route-chat.ts.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { setMetric } from "hono/timing";
import { MemoryError } from "../memory/errors";
import { anthropicDialect } from "../router/anthropic-dialect";
import type { ChatDialect } from "../router/chat-dialect";
import { openAiDialect } from "../router/openai-dialect";
import { errorTypeOf } from "../router/openai-error";
import {
  CONVERSATION_HEADER,
  MEMORIES_HEADER,
  memoryErrorResponse,
  type RouteContext,
  routeChat,
  routeModels,
  upstreamVariable,
} from "../router/route-chat";
import { routerMessages } from "../router/router-messages";
import type { AppEnv } from "./app-env";
import { principalFromBearer, requireBearerAuth } from "./auth";
import { callerOf } from "./caller";
import { statusFor } from "./error-response";
import { allowedOrigin } from "./mcp-cors";
import { oauthSite } from "./oauth/oauth-site";

/**
 * CORS for browser chat apps: preflights answered before auth, the headers a request asks for allowed
 * (OpenAI's browser SDK sends its own x-stainless-* ones; no cookie is ever accepted, so only a bearer
 * the page holds itself can authenticate), the router's and the upstream's headers readable.
 */
const routerCors: MiddlewareHandler<AppEnv> = (c, next) => {
  const origins = c.var.config.CORS_ORIGINS;
  return cors({
    origin: (origin) => allowedOrigin(origins, origin),
    exposeHeaders: [
      MEMORIES_HEADER,
      CONVERSATION_HEADER,
      "Server-Timing",
      "WWW-Authenticate",
      "Retry-After",
      "X-Request-Id",
    ],
    allowMethods: ["GET", "POST", "OPTIONS"],
    maxAge: 86_400,
    credentials: false,
  })(c, next);
};

/** The dialect of each route, built per request (its upstream from config, Anthropic's from the client's headers too). */
type DialectOf = (c: Context<AppEnv>) => ChatDialect;

const openAi: DialectOf = (c) => openAiDialect(c.var.services().chatUpstream(), upstreamVariable(c.var.config));
const anthropic: DialectOf = (c) => anthropicDialect(c.var.services().anthropicUpstream(), c.req.raw.headers);

const INVALID_KEY = "The key or access token is unknown, expired or revoked";

/**
 * Bearer auth whose refusal is in the route's API shape (its WWW-Authenticate challenge kept). With
 * `apiKeyHeader`, a request without Authorization may present its key as `x-api-key` (Anthropic's
 * clients do).
 */
function routerAuth(dialectOf: DialectOf, apiKeyHeader = false): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const apiKey = apiKeyHeader && !c.req.header("authorization") ? c.req.header("x-api-key") : undefined;
    if (apiKey) {
      const principal = await principalFromBearer(c, apiKey.trim(), oauthSite(c));
      if (!principal) return dialectOf(c).error(401, INVALID_KEY, "authentication_error", null, "invalid_api_key");
      c.set("principal", principal);
      return next();
    }
    const refused = await requireBearerAuth(c, next);
    if (!(refused instanceof Response)) return;
    const body = (await refused.json()) as { message?: string };
    const headers: Record<string, string> = {};
    const challenge = refused.headers.get("www-authenticate");
    if (challenge) headers["WWW-Authenticate"] = challenge;
    return dialectOf(c).error(
      refused.status,
      body.message ?? "Unauthorized",
      errorTypeOf(refused.status),
      null,
      "invalid_api_key",
      headers,
    );
  };
}

/** The request body bounded by ROUTER_MAX_BODY_BYTES (images travel inline), refused in the route's shape. */
function routerBodyLimit(dialectOf: DialectOf): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const config = c.var.config;
    const max = config.ROUTER_MAX_BODY_BYTES;
    return bodyLimit({
      maxSize: max,
      onError: () =>
        dialectOf(c).error(
          413,
          routerMessages(config.LOCALE).bodyTooLarge(max),
          "invalid_request_error",
          null,
          "payload_too_large",
        ),
    })(c, next);
  };
}

function routeContext(c: Context<AppEnv>): RouteContext {
  return {
    env: c.env,
    config: c.var.config,
    caller: callerOf(c),
    waitUntil: (work) => c.executionCtx.waitUntil(work),
    signal: c.req.raw.signal,
    metric: (name, ms, description) => setMetric(c, name, ms, description),
  };
}

function chatRoute(dialectOf: DialectOf) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const ctx = routeContext(c);
    const dialect = dialectOf(c);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return dialect.error(400, routerMessages(ctx.config.LOCALE).notJson, "invalid_request_error");
    }
    try {
      return await routeChat(ctx, dialect, body, c.req.raw.headers);
    } catch (err) {
      if (err instanceof MemoryError) return memoryErrorResponse(dialect, err, statusFor(err.code));
      throw err;
    }
  };
}

export function registerRouterRoutes(app: Hono<AppEnv>): void {
  for (const path of ["/v1/chat/completions", "/v1/models", "/v1/messages"]) app.use(path, routerCors);
  app.post("/v1/chat/completions", routerBodyLimit(openAi), routerAuth(openAi), chatRoute(openAi));
  app.get("/v1/models", routerAuth(openAi), (c) =>
    routeModels(routeContext(c), c.var.services().chatUpstream(), openAi(c)),
  );
  app.post("/v1/messages", routerBodyLimit(anthropic), routerAuth(anthropic, true), chatRoute(anthropic));
}
