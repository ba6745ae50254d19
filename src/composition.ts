/**
 * @module composition
 * The one composition root: reads config and picks an adapter for every port. Only this file (and
 * the entry point) knows which concrete storage and providers exist.
 */
import { monotonicFactory } from "ulid";
import type { AccountStores } from "./accounts/account-ports";
import { type Config, embeddingDimensions, embeddingModelKey, vectorizeBindingOf } from "./config";
import { consoleLogger } from "./console-logger";
import type { Env } from "./env";
import type { RouteServices } from "./http/route-services";
import { EXPORT_PAGE_SIZE } from "./memory/export/export-stream";
import { FreshBuffer } from "./memory/fresh-buffer";
import { MemoryService } from "./memory/memory-service";
import type {
  Embedder,
  EntityStore,
  ExportReader,
  LifecycleScan,
  Llm,
  MemoryRepo,
  Reranker,
  VectorIndex,
} from "./memory/ports";
import { exportInvocation } from "./platform-limits/export-invocation";
import { invocationCallsLeft } from "./platform-limits/invocation";
import { limitedSqlStorage } from "./platform-limits/limited-sql-storage";
import { withEmbedderFault } from "./providers/dev-fault-embedder";
import { LocalHashEmbedder } from "./providers/local-hash-embedder";
import { OpenAiCompatibleEmbedder } from "./providers/openai-compatible/openai-compatible-embedder";
import { OpenAiCompatibleLlm } from "./providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "./providers/rules-llm";
import { WorkersAiEmbedder } from "./providers/workers-ai-embedder";
import { WorkersAiLlm } from "./providers/workers-ai-llm";
import { isEmbeddingModel, isLlmModel, isRerankerModel } from "./providers/workers-ai-models";
import { NoReranker, WorkersAiReranker } from "./providers/workers-ai-reranker";
import type { AnthropicUpstream } from "./router/anthropic-dialect";
import { type ChatUpstream, OpenAiCompatibleUpstream } from "./router/chat-upstream";
import { WorkersAiUpstream } from "./router/workers-ai-upstream";
import type { ShardStores } from "./shards/owner-home";
import { memoryShard, memoryShards, ownerShardForRead } from "./shards/shard-lookup";
import type { ShardHome } from "./shards/shard-placement";
import { D1ApiKeyStore } from "./storage/accounts/d1-api-key-store";
import { D1ClientRegistrationStore } from "./storage/accounts/d1-client-registration-store";
import { D1DashboardSessionStore } from "./storage/accounts/d1-dashboard-session-store";
import { D1SseSessionStore } from "./storage/accounts/d1-sse-session-store";
import { D1EntityStore } from "./storage/entities/d1-entity-store";
import { D1ExportReader, exportPageQueries } from "./storage/memories/d1-export-reader";
import { D1LifecycleScan } from "./storage/memories/d1-lifecycle-queries";
import { D1MemoryRepo } from "./storage/memories/d1-memory-repo";
import { MeteredD1 } from "./storage/metered-d1";
import { DoConversations } from "./storage/object/do-conversations";
import { DoIdempotencyStore } from "./storage/object/do-idempotency-store";
import { DoSessionCounters } from "./storage/object/do-session-counters";
import { meteredSqlStorage } from "./storage/object/metered-sql-storage";
import { withDevFault } from "./storage/vectors/dev-fault-vector-index";
import { LocalVectorIndex } from "./storage/vectors/local-vector-index";
import { VectorizeVectorIndex } from "./storage/vectors/vectorize-vector-index";
import { timePhase } from "./timing/request-timing";

function requireBinding<T>(value: T | undefined, name: string, setting: string): T {
  if (!value)
    throw new Error(`${setting} needs the ${name} binding; declare it in wrangler.toml or switch to the local adapter`);
  return value;
}

/** A model name config already checked (config.ts), narrowed to its Workers AI type by its guard. */
function supported<M extends string>(name: string, guard: (n: string) => n is M, setting: string): M {
  if (!guard(name)) throw new Error(`${setting} "${name}" is not a supported Workers AI model`);
  return name;
}

function buildModelEmbedder(env: Env, config: Config): Embedder {
  if (config.EMBEDDING_PROVIDER === "local") {
    return new LocalHashEmbedder({
      model: config.EMBEDDING_MODEL,
      dimensions: config.EMBEDDING_DIMENSIONS || undefined,
    });
  }
  if (config.EMBEDDING_PROVIDER === "openai-compatible")
    return new OpenAiCompatibleEmbedder(
      { baseUrl: config.EMBEDDING_BASE_URL!, apiKey: config.EMBEDDING_API_KEY },
      config.EMBEDDING_MODEL,
      config.EMBEDDING_DIMENSIONS,
    );
  const model = supported(config.EMBEDDING_MODEL, isEmbeddingModel, "EMBEDDING_MODEL");
  return new WorkersAiEmbedder(
    requireBinding(env.AI, "AI", "EMBEDDING_PROVIDER=workers-ai"),
    model,
    embeddingDimensions(config),
  );
}

export function buildEmbedder(env: Env, config: Config): Embedder {
  const embedder = withEmbedderFault(buildModelEmbedder(env, config), config);
  const model = embeddingModelKey(config);
  return model === embedder.model
    ? embedder
    : { model, dimensions: embedder.dimensions, embed: (texts) => embedder.embed(texts) };
}

/** The Vectorize index of `shard` (VECTOR_INDEX=vectorize). */
export function shardVectorize(env: Env, config: Config, shard: string): VectorIndex {
  const name = vectorizeBindingOf(config, shard);
  const binding = Reflect.get(env, name) as VectorizeIndex | undefined;
  return new VectorizeVectorIndex(
    requireBinding(binding, name, name === "VECTORIZE" ? "VECTOR_INDEX=vectorize" : `VECTORIZE_BY_SHARD (${shard})`),
  );
}

/** The local vector index in the user's Durable Object SQLite (VECTOR_INDEX=local). */
function buildLocalIndex(config: Config, sql: SqlStorage, dims: number): VectorIndex {
  return withDevFault(
    new LocalVectorIndex(sql, dims, config.LOCAL_INDEX_MAX_VECTORS || Number.POSITIVE_INFINITY),
    config,
  );
}

function buildReranker(env: Env, config: Config): Reranker {
  if (config.RERANKER === "none") return new NoReranker();
  return new WorkersAiReranker(
    requireBinding(env.AI, "AI", "RERANKER=workers-ai"),
    supported(config.RERANKER_MODEL, isRerankerModel, "RERANKER_MODEL"),
  );
}

function buildLlm(env: Env, config: Config): Llm {
  const rules = new RulesLlm();
  if (config.LLM_PROVIDER === "rules") return rules;
  if (config.LLM_PROVIDER === "openai-compatible")
    return new OpenAiCompatibleLlm(
      { baseUrl: config.LLM_BASE_URL!, apiKey: config.LLM_API_KEY },
      config.LLM_MODEL,
      rules,
      consoleLogger,
    );
  return new WorkersAiLlm(
    requireBinding(env.AI, "AI", "LLM_PROVIDER=workers-ai"),
    supported(config.LLM_MODEL, isLlmModel, "LLM_MODEL"),
    rules,
    consoleLogger,
  );
}

/** The repository over one shard. Metered: every D1 call counts toward the current request's Server-Timing. */
export function buildMemoryRepo(db: D1Database): MemoryRepo {
  return new D1MemoryRepo(new MeteredD1(db));
}

/** The owner's entities on one shard (beside its memories: a shard move carries both). Metered like the repository. */
export function buildEntityStore(db: D1Database): EntityStore {
  return new D1EntityStore(new MeteredD1(db));
}

/**
 * The stores over one shard, as a user's Durable Object uses them: its repository, its entity store
 * and, with Vectorize, the shard's index (VECTORIZE_BY_SHARD); the local index lives in the object, not
 * on a shard (null).
 */
export function buildShardStores(env: Env, config: Config, shard: ShardHome): ShardStores {
  return {
    repo: buildMemoryRepo(shard.db),
    entities: buildEntityStore(shard.db),
    index: config.VECTOR_INDEX === "vectorize" ? shardVectorize(env, config, shard.binding) : null,
  };
}

/**
 * Builds the memory service for one user's Durable Object over the stores of the shard that holds the
 * user's rows (the object hands stores that follow its owner across shards: shards/owner-home.ts).
 */
export function buildMemoryService(
  env: Env,
  config: Config,
  objectSql: SqlStorage,
  stores: ShardStores,
): MemoryService {
  const sql = meteredSqlStorage(limitedSqlStorage(objectSql, config.PLATFORM_LIMITS));
  const embedder = buildEmbedder(env, config);
  const newUlid = monotonicFactory();
  return new MemoryService({
    repo: stores.repo,
    entities: stores.entities,
    index: stores.index ?? buildLocalIndex(config, sql, embedder.dimensions),
    embedder,
    reranker: buildReranker(env, config),
    llm: buildLlm(env, config),
    clock: { now: () => Date.now() },
    fresh: new FreshBuffer(),
    idempotency: new DoIdempotencyStore(sql),
    sessions: new DoSessionCounters(sql),
    conversations: new DoConversations(sql),
    newId: () => newUlid(),
    log: consoleLogger,
    timer: { time: timePhase },
    invocation: { callsLeft: invocationCallsLeft },
    settings: {
      maxResults: config.MAX_RESULTS,
      confidenceFloor: config.CONFIDENCE_FLOOR,
      longContentChars: config.LONG_CONTENT_CHARS,
      embedderKind: config.EMBEDDING_PROVIDER,
      retentionDays: config.SOFT_DELETE_RETENTION_DAYS,
      halfLifeDays: config.IMPORTANCE_HALF_LIFE_DAYS,
      importBatchRows: config.IMPORT_BATCH_ROWS,
      entityRecall: config.RECALL_ENTITIES === "on",
      relationRecall: config.RECALL_RELATIONS === "on",
      timeZone: config.TIME_ZONE,
      thresholds: { denseFloor: config.DENSE_RELEVANCE_FLOOR, nearDuplicateCosine: config.NEAR_DUPLICATE_COSINE },
      abstain: { coverage: config.RECALL_ABSTAIN_COVERAGE, coverageCjk: config.RECALL_ABSTAIN_COVERAGE_CJK },
      progressive: {
        enabled: config.PROGRESSIVE_INJECTION === "on",
        resetMs: config.PROGRESSIVE_RESET_SECONDS * 1000,
        firstCallTokens: config.PROGRESSIVE_FIRST_CALL_TOKENS,
        excerptTokens: config.PROGRESSIVE_EXCERPT_TOKENS,
      },
    },
  });
}

/** Cross-user lifecycle queries of one shard, for the cron fan-out and /health. */
export function buildLifecycleScan(db: D1Database): LifecycleScan {
  return new D1LifecycleScan(db);
}

/** Export reads straight from the owner's shard in the Worker: a read needs no single writer. */
export function buildExportReader(db: D1Database): ExportReader {
  return new D1ExportReader(db);
}

/** The Worker routes' reads (http/route-services.ts) over this deployment's shards and providers. */
export function buildRouteServices(env: Env, config: Config): RouteServices {
  const model = embeddingModelKey(config);
  let accounts: AccountStores | undefined;
  return {
    async exportPart(owner) {
      const reader = buildExportReader((await ownerShardForRead(env, config, owner)).db);
      return exportInvocation(reader, config.PLATFORM_LIMITS, EXPORT_PAGE_SIZE, exportPageQueries);
    },
    exportReader: async (owner) => buildExportReader((await ownerShardForRead(env, config, owner)).db),
    shards: () => memoryShards(env, config),
    shard: (binding) => memoryShard(env, config, binding),
    async indexSync(cap) {
      const each = await Promise.all(
        memoryShards(env, config).map((s) => buildLifecycleScan(s.db).indexSync(model, cap)),
      );
      return {
        unindexed: each.reduce((n, s) => n + s.unindexed, 0),
        otherModel: each.reduce((n, s) => n + s.otherModel, 0),
        capped: each.some((s) => s.capped),
      };
    },
    embedder: () => buildEmbedder(env, config),
    accounts: () => (accounts ??= buildAccountStores(env.DB)),
    chatUpstream: () => buildChatUpstream(env, config),
    anthropicUpstream: () => buildAnthropicUpstream(config),
  };
}

/** The account stores (keys, dashboard sessions, client registrations, SSE sessions): all on `DB`. */
export function buildAccountStores(db: D1Database): AccountStores {
  return {
    apiKeys: new D1ApiKeyStore(db),
    dashboardSessions: new D1DashboardSessionStore(db),
    clientRegistrations: new D1ClientRegistrationStore(db),
    sseSessions: new D1SseSessionStore(db),
  };
}

/**
 * The memory router's upstream (docs/router.md): Workers AI through the AI binding, or the
 * OpenAI-compatible server at ROUTER_UPSTREAM_BASE_URL; null when neither is configured (503).
 */
export function buildChatUpstream(env: Env, config: Config): ChatUpstream | null {
  if (config.ROUTER_UPSTREAM === "workers-ai") return env.AI ? new WorkersAiUpstream(env.AI) : null;
  if (!config.ROUTER_UPSTREAM_BASE_URL) return null;
  return new OpenAiCompatibleUpstream(config.ROUTER_UPSTREAM_BASE_URL, config.ROUTER_UPSTREAM_API_KEY);
}

/** The memory router's Anthropic upstream (POST /v1/messages); null when ROUTER_ANTHROPIC_BASE_URL is unset (503). */
export function buildAnthropicUpstream(config: Config): AnthropicUpstream | null {
  if (!config.ROUTER_ANTHROPIC_BASE_URL) return null;
  return { baseUrl: config.ROUTER_ANTHROPIC_BASE_URL, apiKey: config.ROUTER_ANTHROPIC_API_KEY };
}
