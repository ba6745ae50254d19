/**
 * @module http/app-env
 * Hono's typing for this app: bindings and per-request variables.
 */
import type { TimingVariables } from "hono/timing";
import type { Principal } from "../access/principal";
import type { Config } from "../config";
import type { Env } from "../env";
import type { AccountStoresFor, RouteServices } from "./route-services";

export interface AppEnv {
  Bindings: Env;
  Variables: TimingVariables & {
    /** This deployment's config, parsed once per request (http/request-context.ts). */
    config: Config;
    /** The request's read services, built on first use (http/route-services.ts). */
    services: () => RouteServices;
    /** The account stores for any env, for the OAuth library's callbacks (http/oauth/oauth-site.ts). */
    accountsFor: AccountStoresFor;
    principal?: Principal;
    resourceMetadataUrl?: string;
  };
}
