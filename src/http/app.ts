/**
 * @module http/app
 * The Hono app: the Host/Origin guard, public health, authenticated MCP transports, body-size
 * limits, JSON 404 and the one error mapping. Feature routes are registered here; their logic
 * lives in their own modules.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { LIMITS } from "../memory/limits";
import { registerAdminRoutes } from "./admin-shards";
import type { AppEnv } from "./app-env";
import { requireBearerAuth } from "./auth";
import { registerDashboardRoutes } from "./dashboard/dashboard-routes";
import { errorBody, handleError } from "./error-response";
import { exportRoute } from "./export-route";
import { health } from "./health";
import { guardHostAndOrigin } from "./host-origin-guard";
import { importRoute } from "./import-route";
import { mcpCors } from "./mcp-cors";
import { serveMcp, serveSse } from "./mcp-routes";
import { registerOAuthRoutes } from "./oauth/oauth-routes";
import { provideRequestContext } from "./request-context";
import type { RouteServicesFactory } from "./route-services";
import { registerRouterRoutes } from "./router-routes";
import { serverTiming } from "./server-timing";
import { similarityRoute } from "./similarity-route";
import { guardSseMessage } from "./sse-message-guard";

const limitBody = bodyLimit({
  maxSize: LIMITS.bodyMaxBytes,
  onError: (c) => c.json(errorBody("payload_too_large", `Request body exceeds ${LIMITS.bodyMaxBytes} bytes`), 413),
});

/** What the composition root hands the app: how to build a request's read services. */
export interface AppDeps {
  routeServices: RouteServicesFactory;
}

export function buildApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.notFound((c) => c.json(errorBody("not_found", `No route for ${c.req.method} ${c.req.path}`), 404));
  app.use("*", provideRequestContext(deps.routeServices));
  // Before every route: DNS-rebinding protection on loopback, the CORS_ORIGINS allowlist on a deployment.
  app.use("*", guardHostAndOrigin);
  app.get("/", (c) =>
    c.json({ service: "hippocampus", mcp: "/mcp", sse: "/sse", health: "/health", dashboard: "/dashboard" }),
  );
  registerDashboardRoutes(app);
  app.get("/health", health);
  registerAdminRoutes(app);
  registerOAuthRoutes(app);
  // CORS first: a preflight is answered before auth, and the 401 carries the CORS headers too.
  app.use("/mcp", ...serverTiming, mcpCors, limitBody, requireBearerAuth);
  app.all("/mcp", serveMcp);
  app.use("/v1/*", ...serverTiming);
  app.post("/v1/import", limitBody, requireBearerAuth, importRoute);
  app.get("/v1/export", requireBearerAuth, exportRoute);
  app.post("/v1/similarity", limitBody, requireBearerAuth, similarityRoute);
  // The memory router (docs/router.md): OpenAI-compatible chat with recall before and saving after.
  registerRouterRoutes(app);
  app.use("/sse", requireBearerAuth);
  app.use("/sse/*", limitBody, requireBearerAuth);
  app.get("/sse", serveSse);
  app.post("/sse/message", guardSseMessage, serveSse);
  return app;
}
