/**
 * @module http/health
 * GET /health: liveness plus what the deployment runs on (storage, index, embeddings), each shard's
 * status and size (docs/shards.md), and how far the derived vector index is in sync with D1 across
 * all users (bounded counts per shard, summed; no per-user data). An embedder reached over HTTP
 * (EMBEDDING_PROVIDER=openai-compatible) is probed (providers/openai-compatible/embedder-probe.ts): a
 * server that does not answer makes embeddings "unavailable" and the status "degraded" (still 200:
 * saves are kept and indexed later, recall answers from keywords). `daily_limits`: the plan's daily
 * allowances (Workers Free's; none on Paid) and when they reset; the account's usage of them is not
 * visible to the Worker (Cloudflare counts it per account), so the field says so instead of a figure,
 * and each user's own share is in memory_stats.
 */
import type { Context } from "hono";
import { type Config, embeddingDimensions, embeddingModelKey, vectorIndexBindings } from "../config";
import { consoleLogger } from "../console-logger";
import type { Env } from "../env";
import { dailyAllowances, nextUtcMidnight } from "../platform-limits/daily-usage";
import { probeEmbedder } from "../providers/openai-compatible/embedder-probe";
import { databaseBytes } from "../shards/shard-placement";
import { VERSION } from "../version";
import type { AppEnv } from "./app-env";
import type { RouteServices } from "./route-services";

export async function health(c: Context<AppEnv>): Promise<Response> {
  const config = c.var.config;
  const services = c.var.services();
  const shards = await shardStatus(services, config);
  const storage = shards.every((s) => s.status === "ok") ? "ok" : "unavailable";
  const embeddings = await embeddingsStatus(c.env, config, services);
  const aiReady = embeddings === "ok";
  const indexReady = config.VECTOR_INDEX === "local" || c.env.VECTORIZE !== undefined;
  const body = {
    status: storage === "ok" && aiReady ? "ok" : "degraded",
    service: config.SERVER_NAME,
    version: VERSION,
    storage: { kind: "d1", status: storage, shards },
    vector_index: {
      kind: config.VECTOR_INDEX,
      status: indexReady ? "ok" : "missing binding",
      indexes: await vectorizeHeadroom(c.env, config),
    },
    embeddings: {
      provider: config.EMBEDDING_PROVIDER,
      model: config.EMBEDDING_MODEL,
      status: embeddings,
    },
    semantic_search: aiReady && indexReady,
    index_sync: storage === "ok" ? await indexSync(services) : null,
    daily_limits: dailyLimits(config, Date.now()),
  };
  return c.json(body, storage === "ok" ? 200 : 503);
}

/**
 * Each Vectorize index in use: the vectors it holds (its own count, which lags recent writes) against
 * the most one index holds (PLATFORM_LIMITS vectors_per_index), and the shards it serves.
 */
export async function vectorizeHeadroom(env: Env, config: Config) {
  const limit = config.PLATFORM_LIMITS.vectors_per_index;
  return Promise.all(
    vectorIndexBindings(config).map(async ({ binding, shards }) => {
      const index = Reflect.get(env, binding) as VectorizeIndex | undefined;
      if (!index) return { binding, shards, status: "missing binding", vectors: null, limit };
      try {
        // A V2 index answers vectorCount and dimensions; the binding's type still names V1's shape.
        const info: { vectorCount?: number; vectorsCount?: number; dimensions?: number } = await index.describe();
        const vectors = info.vectorCount ?? info.vectorsCount ?? 0;
        const stored = vectors * (info.dimensions ?? embeddingDimensions(config));
        const cap = config.PLATFORM_LIMITS.vectorize_stored_dimensions;
        return {
          binding,
          shards,
          status: "ok",
          vectors,
          limit,
          used: share(vectors, limit),
          stored_dimensions: stored,
          ...(cap > 0 ? { stored_dimensions_limit: cap, stored_dimensions_used: share(stored, cap) } : {}),
        };
      } catch {
        return { binding, shards, status: "unavailable", vectors: null, limit };
      }
    }),
  );
}

/**
 * The plan's daily allowances and their reset. The account-wide usage of them is Cloudflare's count,
 * across every Worker and user of the account, which no binding reports: `account_usage_today` is null
 * and `account_usage_source` says where to read it. Each user's own share: memory_stats' daily_usage.
 */
export function dailyLimits(config: Config, now: number) {
  return {
    plan: config.PLATFORM_LIMITS.plan,
    allowances: dailyAllowances(config.PLATFORM_LIMITS) ?? {},
    resets_at: new Date(nextUtcMidnight(now)).toISOString(),
    account_usage_today: null,
    account_usage_source:
      "not visible to the Worker: the Cloudflare dashboard (Workers, D1, KV, Workers AI usage) or the GraphQL Analytics API; each user's own share is in memory_stats",
  };
}

/** Workers AI needs its binding; an OpenAI-compatible server must answer (probed, cached); the offline embedder always does. */
async function embeddingsStatus(
  env: Env,
  config: Config,
  services: RouteServices,
): Promise<"ok" | "missing binding" | "unavailable"> {
  if (config.EMBEDDING_PROVIDER === "workers-ai") return env.AI !== undefined ? "ok" : "missing binding";
  if (config.EMBEDDING_PROVIDER !== "openai-compatible") return "ok";
  return probeEmbedder(`${config.EMBEDDING_BASE_URL} ${embeddingModelKey(config)}`, services.embedder());
}

/** Counted up to this many rows per figure, so an unauthenticated request stays cheap. */
const SYNC_COUNT_CAP = 1000;

/** A share rounded to a tenth of a percent. */
const share = (used: number, limit: number) => Math.round((used / limit) * 1000) / 1000;

/** Each shard answers a trivial query and reports its size (D1's own figure) against the plan's database size. */
async function shardStatus(services: RouteServices, config: Config) {
  const limit = config.PLATFORM_LIMITS.d1_database_bytes;
  return Promise.all(
    services.shards().map(async ({ binding, db }) => {
      try {
        const bytes = await databaseBytes(db);
        return { binding, status: "ok", bytes, limit_bytes: limit, used: share(bytes, limit) };
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
