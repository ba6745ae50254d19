/**
 * @module http/request-context
 * The first middleware of every request: parses the config once (`c.var.config`) and builds the
 * request's read services (`c.var.services`, http/route-services.ts) from the factory the composition
 * root handed to `buildApp`. Handlers read both from `c.var`; none loads config or builds an adapter.
 * `c.var.accountsFor` gives the account stores of an env to code that runs outside the request
 * (the OAuth library's token callback); it captures only the factory, never a request.
 */
import type { MiddlewareHandler } from "hono";
import { loadConfig } from "../config";
import type { AppEnv } from "./app-env";
import type { AccountStoresFor, RouteServices, RouteServicesFactory } from "./route-services";

export function provideRequestContext(routeServices: RouteServicesFactory): MiddlewareHandler<AppEnv> {
  const accountsFor: AccountStoresFor = (env) => routeServices(env, loadConfig(env)).accounts();
  return async (c, next) => {
    const config = loadConfig(c.env);
    c.set("config", config);
    // Built on first use: most requests (MCP, OAuth) read nothing here.
    let services: RouteServices | undefined;
    c.set("services", () => (services ??= routeServices(c.env, config)));
    c.set("accountsFor", accountsFor);
    await next();
  };
}
