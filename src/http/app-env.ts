/**
 * @module http/app-env
 * Hono's typing for this app: bindings and per-request variables.
 */
import type { Env } from "../env";
import type { Principal } from "./principal";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    principal?: Principal;
    resourceMetadataUrl?: string;
  };
}
