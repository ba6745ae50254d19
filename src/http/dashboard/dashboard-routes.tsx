/** @jsxImportSource hono/jsx */
/**
 * @module http/dashboard/dashboard-routes
 * Mounts the dashboard on the app under /dashboard: security headers on every answer, small form
 * bodies, errors rendered as a page (never JSON, never a stack trace). No CORS here: a cookie
 * route answers its own pages only.
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { consoleLogger } from "../../console-logger";
import { MemoryError } from "../../memory/errors";
import type { AppEnv } from "../app-env";
import { statusFor } from "../error-response";
import { rateLimit, SIGN_IN_BUCKET } from "../oauth/rate-limit";
import { editAction, exportAction, memoryAction, revokeAction, signInAction, signOutAction } from "./dashboard-actions";
import { dashboardHeaders, frameOf } from "./dashboard-context";
import { clientsPage, memoriesPage, memoryPage, overview, quarantinePage, signInPage } from "./dashboard-pages";
import { currentSession } from "./dashboard-session";
import { DASHBOARD_CSS } from "./dashboard-style";
import { devicesPage, revokeDeviceAction } from "./device-actions";
import { entitiesPage, entityPage } from "./entity-pages";
import { FAVICON_ICO } from "./favicon";
import { Layout, renderPage } from "./layout";

/** A form is a few KB; memory text is at most 8000 characters. */
const FORM_MAX_BYTES = 64 * 1024;

type Handler = (c: Context<AppEnv>) => Promise<Response>;

/** Expected failures become a page in the person's language; anything else a generic one, logged without memory text. */
function asPage(handler: Handler): Handler {
  return async (c) => {
    try {
      return await handler(c);
    } catch (err) {
      const known = err instanceof MemoryError;
      if (!known) consoleLogger.error("dashboard error", { path: c.req.path, error: String(err) });
      const session = await currentSession(c).catch(() => null);
      const frame = frameOf(c, "memories", session, known ? err.message : undefined);
      const status = known ? statusFor(err.code) : 500;
      return renderPage(
        c,
        <Layout frame={frame} title={frame.m.error}>
          <h1>{frame.m.error}</h1>
          <p>
            <a href="/dashboard">{frame.m.nav.overview}</a>
          </p>
        </Layout>,
        status,
      );
    }
  };
}

export function registerDashboardRoutes(app: Hono<AppEnv>): void {
  const limit = bodyLimit({ maxSize: FORM_MAX_BYTES, onError: (c) => c.text("Form too large", 413) });
  app.use("/dashboard", dashboardHeaders);
  app.use("/dashboard/*", dashboardHeaders);
  app.get("/dashboard/style.css", (c) =>
    c.body(DASHBOARD_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=300" }),
  );
  app.get("/favicon.ico", (c) =>
    c.body(FAVICON_ICO, 200, { "content-type": "image/x-icon", "cache-control": "public, max-age=86400" }),
  );
  app.get("/dashboard", asPage(overview));
  // The same per-address budget as the OAuth page's sign-in (one bucket for both).
  app.post(
    "/dashboard/sign-in",
    rateLimit("OAUTH_SIGNIN_LIMITER", SIGN_IN_BUCKET, (c) =>
      signInPage(c, frameOf(c, "sign-in", null).m.signIn.problems.too_many, undefined, 429),
    ),
    limit,
    asPage(signInAction),
  );
  app.post("/dashboard/sign-out", limit, asPage(signOutAction));
  app.get("/dashboard/memories", asPage(memoriesPage));
  app.get("/dashboard/memories/:id", asPage(memoryPage));
  app.post("/dashboard/memories/:id/edit", limit, asPage(editAction));
  app.post("/dashboard/memories/:id/delete", limit, asPage(memoryAction("delete")));
  app.post("/dashboard/memories/:id/restore", limit, asPage(memoryAction("restore")));
  app.post("/dashboard/memories/:id/release", limit, asPage(memoryAction("release")));
  app.get("/dashboard/entities", asPage(entitiesPage));
  app.get("/dashboard/entities/:name", asPage(entityPage));
  app.get("/dashboard/quarantine", asPage(quarantinePage));
  app.get("/dashboard/devices", asPage(devicesPage));
  app.post("/dashboard/devices/:id/revoke", limit, asPage(revokeDeviceAction));
  app.get("/dashboard/clients", asPage(clientsPage));
  app.post("/dashboard/clients/:id/revoke", limit, asPage(revokeAction));
  app.get("/dashboard/export", asPage(exportAction));
}
