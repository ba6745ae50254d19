/**
 * @module http/health
 * GET /health: liveness plus what the deployment runs on (storage, index, embeddings), and how far
 * the derived vector index is in sync with D1 across all users (bounded counts, no per-user data).
 */
import type { Context } from "hono";
import { buildLifecycleScan, embeddingModelKey } from "../composition";
import { loadConfig } from "../config";
import { consoleLogger } from "../console-logger";
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
    embeddings: {
      provider: config.EMBEDDING_PROVIDER,
      model: config.EMBEDDING_MODEL,
      status: aiReady ? "ok" : "missing binding",
    },
    semantic_search: aiReady && indexReady,
    index_sync: storage === "ok" ? await indexSync(c, embeddingModelKey(config)) : null,
  };
  return c.json(body, storage === "ok" ? 200 : 503);
}

/** Counted up to this many rows per figure, so an unauthenticated request stays cheap. */
const SYNC_COUNT_CAP = 1000;

/** Active memories not yet indexed or still on another model; the lifecycle cron repairs both. */
async function indexSync(c: Context<AppEnv>, model: string) {
  try {
    const s = await buildLifecycleScan(c.env).indexSync(model, SYNC_COUNT_CAP);
    return {
      unindexed: s.unindexed,
      other_model: s.otherModel,
      in_sync: s.unindexed === 0 && s.otherModel === 0,
      counted_up_to: SYNC_COUNT_CAP,
      capped: s.capped,
    };
  } catch (err) {
    consoleLogger.warn("health: index sync query failed", { error: String(err) });
    return null;
  }
}
