/**
 * @module http/router-routes
 * The memory router's HTTP surface (docs/router.md): `POST /v1/chat/completions` and
 * `GET /v1/models` behind the same Bearer auth as /mcp (a user key, an OAuth access token, or an app
 * key naming its end user in `user`), with every error in OpenAI's shape, the body bounded by
 * ROUTER_MAX_BODY_BYTES and the recall's time in Server-Timing. CORS as on /mcp (CORS_ORIGINS, never
 * credentials), so browser chat apps can call it and read the memory headers. The turn itself is
 * router/route-chat.ts.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { setMetric } from "hono/timing";
import { buildChatUpstream } from "../composition";
import { loadConfig } from "../config";
import { MemoryError } from "../memory/errors";
import { errorTypeOf, openAiError } from "../router/openai-error";
import {
  CONVERSATION_HEADER,
  MEMORIES_HEADER,
  memoryErrorResponse,
  type RouteContext,
  routeChat,
  routeModels,
} from "../router/route-chat";
import { routerMessages } from "../router/router-messages";
import type { AppEnv } from "./app-env";
import { requireBearerAuth } from "./auth";
import { callerOf } from "./caller";
import { statusFor } from "./error-response";
import { allowedOrigin } from "./mcp-cors";

/**
 * CORS for browser chat apps: preflights answered before auth, the headers a request asks for allowed
 * (OpenAI's browser SDK sends its own x-stainless-* ones; no cookie is ever accepted, so only a bearer
 * the page holds itself can authenticate), the router's and the upstream's headers readable.
 */
const routerCors: MiddlewareHandler<AppEnv> = (c, next) => {
  const origins = loadConfig(c.env).CORS_ORIGINS;
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

/** Bearer auth whose refusal is in OpenAI's shape (its WWW-Authenticate challenge kept). */
const routerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const refused = await requireBearerAuth(c, next);
  if (!(refused instanceof Response)) return;
  const body = (await refused.json()) as { message?: string };
  const headers: Record<string, string> = {};
  const challenge = refused.headers.get("www-authenticate");
  if (challenge) headers["WWW-Authenticate"] = challenge;
  return openAiError(
    refused.status,
    body.message ?? "Unauthorized",
    errorTypeOf(refused.status),
    null,
    "invalid_api_key",
    headers,
  );
};

/** The request body bounded by ROUTER_MAX_BODY_BYTES (images travel inline), refused in OpenAI's shape. */
const routerBodyLimit: MiddlewareHandler<AppEnv> = (c, next) => {
  const config = loadConfig(c.env);
  const max = config.ROUTER_MAX_BODY_BYTES;
  return bodyLimit({
    maxSize: max,
    onError: () =>
      openAiError(
        413,
        routerMessages(config.LOCALE).bodyTooLarge(max),
        "invalid_request_error",
        null,
        "payload_too_large",
      ),
  })(c, next);
};

function routeContext(c: Context<AppEnv>): RouteContext {
  const config = loadConfig(c.env);
  return {
    env: c.env,
    config,
    caller: callerOf(c),
    upstream: buildChatUpstream(c.env, config),
    waitUntil: (work) => c.executionCtx.waitUntil(work),
    signal: c.req.raw.signal,
    metric: (name, ms, description) => setMetric(c, name, ms, description),
  };
}

async function chatCompletions(c: Context<AppEnv>): Promise<Response> {
  const ctx = routeContext(c);
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return openAiError(400, routerMessages(ctx.config.LOCALE).notJson, "invalid_request_error");
  }
  try {
    return await routeChat(ctx, body, c.req.raw.headers);
  } catch (err) {
    if (err instanceof MemoryError) return memoryErrorResponse(err, statusFor(err.code));
    throw err;
  }
}

export function registerRouterRoutes(app: Hono<AppEnv>): void {
  app.use("/v1/chat/completions", routerCors);
  app.use("/v1/models", routerCors);
  app.post("/v1/chat/completions", routerBodyLimit, routerAuth, chatCompletions);
  app.get("/v1/models", routerAuth, (c) => routeModels(routeContext(c)));
}
