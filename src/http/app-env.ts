/**
 * @module http/app-env
 * Hono's typing for this app: bindings and per-request variables.
 */
import type { TimingVariables } from "hono/timing";
import type { Principal } from "../access/principal";
import type { Env } from "../env";

export interface AppEnv {
  Bindings: Env;
  Variables: TimingVariables & {
    principal?: Principal;
    resourceMetadataUrl?: string;
  };
}
