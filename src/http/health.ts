/**
 * @module http/health
 * GET /health: liveness plus what the deployment runs on (storage, index, embeddings).
 */
import type { Context } from "hono";
import { loadConfig } from "../config";
import { VERSION } from "../version";
import type { AppEnv } from "./app-env";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const config = loadConfig(c.env);
  let storage = "ok";
  try {
    await c.env.DB.prepare("SELECT 1").first();
  } catch {
    storage = "unavailable";
  }
  const aiReady = config.EMBEDDING_PROVIDER === "local" || c.env.AI !== undefined;
  const indexReady = config.VECTOR_INDEX === "local" || c.env.VECTORIZE !== undefined;
  const body = {
    status: storage === "ok" ? "ok" : "degraded",
    service: config.SERVER_NAME,
    version: VERSION,
    storage: { kind: "d1", status: storage },
    vector_index: { kind: config.VECTOR_INDEX, status: indexReady ? "ok" : "missing binding" },
    embeddings: { provider: config.EMBEDDING_PROVIDER, model: config.EMBEDDING_MODEL, status: aiReady ? "ok" : "missing binding" },
    semantic_search: aiReady && indexReady,
  };
  return c.json(body, storage === "ok" ? 200 : 503);
}
