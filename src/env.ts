/**
 * @module env
 * The Worker's bindings and raw vars, as wrangler.toml declares them. Vars are parsed once by config.ts.
 */
export interface Env {
  DB: D1Database;
  USER_MEMORY: DurableObjectNamespace<import("./durable/user-memory").UserMemory>;
  SSE_SESSION: DurableObjectNamespace;
  AI?: Ai;
  VECTORIZE?: VectorizeIndex;
  OAUTH_KV?: KVNamespace;
  [key: string]: unknown;
}
