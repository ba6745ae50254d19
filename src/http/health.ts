/**
 * @module http/health
 * GET /health: liveness plus what the deployment runs on (storage, index, embeddings), each shard's
 * status and size (docs/shards.md), and how far the derived vector index is in sync with D1 across
 * all users (bounded counts per shard, summed; no per-user data).
 */
import type { Context } from "hono";
import { consoleLogger } from "../console-logger";
import { databaseBytes } from "../shards/shard-placement";
import { VERSION } from "../version";
import type { AppEnv } from "./app-env";
import type { RouteServices } from "./route-services";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const config = c.var.config;
  const services = c.var.services();
  const shards = await shardStatus(services);
  const storage = shards.every((s) => s.status === "ok") ? "ok" : "unavailable";
  // Only Workers AI needs a binding; an OpenAI-compatible server is reached over HTTP when used.
  const aiReady = config.EMBEDDING_PROVIDER !== "workers-ai" || c.env.AI !== undefined;
  const indexReady = config.VECTOR_INDEX === "local" || c.env.VECTORIZE !== undefined;
  const body = {
    status: storage === "ok" ? "ok" : "degraded",
    service: config.SERVER_NAME,
    version: VERSION,
    storage: { kind: "d1", status: storage, shards },
    vector_index: { kind: config.VECTOR_INDEX, status: indexReady ? "ok" : "missing binding" },
    embeddings: {
      provider: config.EMBEDDING_PROVIDER,
      model: config.EMBEDDING_MODEL,
      status: aiReady ? "ok" : "missing binding",
    },
    semantic_search: aiReady && indexReady,
    index_sync: storage === "ok" ? await indexSync(services) : null,
  };
  return c.json(body, storage === "ok" ? 200 : 503);
}

/** Counted up to this many rows per figure, so an unauthenticated request stays cheap. */
const SYNC_COUNT_CAP = 1000;

/** Each shard answers a trivial query and reports its size (D1's own figure). */
async function shardStatus(services: RouteServices) {
  return Promise.all(
    services.shards().map(async ({ binding, db }) => {
      try {
        return { binding, status: "ok", bytes: await databaseBytes(db) };
      } catch {
        return { binding, status: "unavailable", bytes: null };
      }
    }),
  );
}

/** Active memories not yet indexed or still on another model, over every shard; the lifecycle cron repairs both. */
async function indexSync(services: RouteServices) {
  try {
    const { unindexed, otherModel, capped } = await services.indexSync(SYNC_COUNT_CAP);
    return {
      unindexed,
      other_model: otherModel,
      in_sync: unindexed === 0 && otherModel === 0,
      counted_up_to: SYNC_COUNT_CAP,
      capped,
    };
  } catch (err) {
    consoleLogger.warn("health: index sync query failed", { error: String(err) });
    return null;
  }
}
