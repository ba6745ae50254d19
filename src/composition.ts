/**
 * @module composition
 * The one composition root: reads config and picks an adapter for every port. Only this file (and
 * the entry point) knows which concrete storage and providers exist.
 */
import { monotonicFactory } from "ulid";
import { type Config, embeddingDimensions, loadConfig } from "./config";
import { consoleLogger } from "./console-logger";
import type { Env } from "./env";
import { EXPORT_PAGE_SIZE } from "./memory/export/export-stream";
import { FreshBuffer } from "./memory/fresh-buffer";
import type { ImportSize } from "./memory/import/import-size";
import type { LifecyclePolicy, MaintenanceRequest } from "./memory/lifecycle/lifecycle-types";
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
import type { Owner } from "./memory/types";
import {
  exportPartByCpu,
  maintenanceRowsByCpu,
  moveRowsByCpu,
  refuseImportOverCpu,
} from "./platform-limits/cpu-sizing";
import { currentInvocation, InvocationBudget, runInvocation } from "./platform-limits/invocation-budget";
import { limitedEnv } from "./platform-limits/limited-env";
import { limitedSqlStorage } from "./platform-limits/limited-sql-storage";
import { DEFAULT_PLATFORM_LIMITS, type PlatformLimits } from "./platform-limits/platform-limits";
import { withEmbedderFault } from "./providers/dev-fault-embedder";
import { LocalHashEmbedder } from "./providers/local-hash-embedder";
import { OpenAiCompatibleEmbedder } from "./providers/openai-compatible/openai-compatible-embedder";
import { OpenAiCompatibleLlm } from "./providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "./providers/rules-llm";
import { WorkersAiEmbedder } from "./providers/workers-ai-embedder";
import { WorkersAiLlm } from "./providers/workers-ai-llm";
import { isEmbeddingModel, isLlmModel, isRerankerModel } from "./providers/workers-ai-models";
import { NoReranker, WorkersAiReranker } from "./providers/workers-ai-reranker";
import { D1EntityStore } from "./storage/d1-entity-store";
import { D1ExportReader, exportPageQueries } from "./storage/d1-export-reader";
import { D1LifecycleScan } from "./storage/d1-lifecycle-queries";
import { D1MemoryRepo } from "./storage/d1-memory-repo";
import { withDevFault } from "./storage/dev-fault-vector-index";
import { DoIdempotencyStore } from "./storage/do-idempotency-store";
import { DoSessionCounters } from "./storage/do-session-counters";
import { LocalVectorIndex } from "./storage/local-vector-index";
import { MeteredD1 } from "./storage/metered-d1";
import {
  readableOwnerShard,
  resolveOwnerShard,
  type ShardHome,
  type ShardSettings,
  shardDatabase,
} from "./storage/shard-placement";
import { VectorizeVectorIndex } from "./storage/vectorize-vector-index";
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

/**
 * What `embedding_model` records and index repair / migration compare: the model name, plus the
 * dimensions when EMBEDDING_DIMENSIONS is set, so changing either one re-embeds (docs/lifecycle.md).
 */
export function embeddingModelKey(config: Config): string {
  return config.EMBEDDING_DIMENSIONS
    ? `${config.EMBEDDING_MODEL}@${config.EMBEDDING_DIMENSIONS}`
    : config.EMBEDDING_MODEL;
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

function buildIndex(env: Env, config: Config, sql: SqlStorage, dims: number): VectorIndex {
  if (config.VECTOR_INDEX === "local")
    return withDevFault(
      new LocalVectorIndex(sql, dims, config.LOCAL_INDEX_MAX_VECTORS || Number.POSITIVE_INFINITY),
      config,
    );
  return new VectorizeVectorIndex(requireBinding(env.VECTORIZE, "VECTORIZE", "VECTOR_INDEX=vectorize"));
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

/** PLATFORM_LIMITS of this deployment; the paid figures while the config cannot be read (its error surfaces elsewhere). */
export function platformLimits(env: object): PlatformLimits {
  try {
    return loadConfig(env).PLATFORM_LIMITS;
  } catch {
    return DEFAULT_PLATFORM_LIMITS;
  }
}

/** The bindings under PLATFORM_LIMITS (platform-limits/limited-env.ts): D1 limited, Durable Object calls counted. */
export function limitedBindings<E extends object>(env: E): E {
  return limitedEnv(env, platformLimits(env));
}

/** A fresh budget for one invocation (a Worker request, a Cron run, a Durable Object call). */
export function invocationBudget(env: object): InvocationBudget {
  return new InvocationBudget(platformLimits(env));
}

/** Runs `work` on a fresh invocation budget (a call into a Durable Object, whose bindings are already limited). */
export function inInvocation<T>(env: object, work: () => T): T {
  return runInvocation(invocationBudget(env), work);
}

/** D1 calls the current invocation may still make (unbounded outside any invocation). */
export function invocationCallsLeft(): number {
  return currentInvocation()?.callsLeft() ?? Number.POSITIVE_INFINITY;
}

/** Subrequests the current invocation may still make (a Cron run's calls to owners' objects). */
export function invocationSubrequestsLeft(): number {
  return currentInvocation()?.subrequestsLeft() ?? Number.POSITIVE_INFINITY;
}

/** Runs `work` as one invocation: its own budget, the limited bindings. */
export function asInvocation<E extends object, T>(env: E, work: (env: E) => T): T {
  return runInvocation(invocationBudget(env), () => work(limitedBindings(env)));
}

/** Builds the memory service for one user's Durable Object, on the shard that holds the user's rows. */
export function buildMemoryService(env: Env, config: Config, objectSql: SqlStorage, db: D1Database): MemoryService {
  const sql = limitedSqlStorage(objectSql, config.PLATFORM_LIMITS);
  const embedder = buildEmbedder(env, config);
  const newUlid = monotonicFactory();
  return new MemoryService({
    repo: buildMemoryRepo(db),
    entities: buildEntityStore(db),
    index: buildIndex(env, config, sql, embedder.dimensions),
    embedder,
    reranker: buildReranker(env, config),
    llm: buildLlm(env, config),
    clock: { now: () => Date.now() },
    fresh: new FreshBuffer(),
    idempotency: new DoIdempotencyStore(sql),
    sessions: new DoSessionCounters(sql),
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

/** The lifecycle policy every maintenance request carries (cron and on-demand alike). */
export function lifecyclePolicy(config: Config): LifecyclePolicy {
  return {
    retentionDays: config.SOFT_DELETE_RETENTION_DAYS,
    retentionRules: config.RETENTION_RULES.map((r) => ({
      category: r.category,
      memoryType: r.memory_type,
      days: r.days,
      keepPriorityAtMost: r.keep_priority_at_most,
    })),
    halfLifeDays: config.IMPORTANCE_HALF_LIFE_DAYS,
    batchSize: config.LIFECYCLE_BATCH_SIZE,
  };
}

/** Cross-user lifecycle queries of one shard, for the cron fan-out and /health. */
export function buildLifecycleScan(db: D1Database): LifecycleScan {
  return new D1LifecycleScan(db);
}

/** Export reads straight from the owner's shard in the Worker: a read needs no single writer. */
export function buildExportReader(db: D1Database): ExportReader {
  return new D1ExportReader(db);
}

/** Queries kept back from an export part for the request's own work after its last page (the key's last use). */
const EXPORT_RESERVE_QUERIES = 5;

/**
 * An export part inside the current request's invocation: the reader's calls run in it (a stream's
 * pull runs outside the request's async context), `pageSize` is the rows a page reads (EXPORT_PAGE_SIZE,
 * or fewer when the invocation's CPU time cannot carry that many), and `more` says whether one more
 * page fits both what the invocation may still ask of D1 and the rows its CPU time carries
 * (platform-limits/cpu-sizing.ts).
 */
export function exportInvocation(
  reader: ExportReader,
  limits: PlatformLimits,
): { reader: ExportReader; pageSize: number; more: () => boolean } {
  const cpu = exportPartByCpu(limits, EXPORT_PAGE_SIZE);
  const pageSize = cpu.pageSize;
  const budget = currentInvocation();
  if (!budget) return { reader, pageSize, more: () => true };
  let rows = 0;
  const inside = <T>(call: () => Promise<T>) => runInvocation(budget, call);
  const counted = async <T extends unknown[]>(call: () => Promise<T>) => {
    const page = await inside(call);
    rows += page.length;
    return page;
  };
  const within: ExportReader = {
    exportPage: (owner, filter, after, limit) => counted(() => reader.exportPage(owner, filter, after, limit)),
    count: (owner, filter) => inside(() => reader.count(owner, filter)),
    eventsOf: (owner, ids) => inside(() => reader.eventsOf(owner, ids)),
    statedOf: (owner, ids) => inside(() => reader.statedOf(owner, ids)),
    entityPage: (owner, after, limit) => counted(() => reader.entityPage(owner, after, limit)),
    givenRelationPage: (owner, after, limit) => counted(() => reader.givenRelationPage(owner, after, limit)),
  };
  const cost = exportPageQueries(pageSize) + EXPORT_RESERVE_QUERIES;
  return { reader: within, pageSize, more: () => budget.callsLeft() >= cost && cpu.fits(rows) };
}

/** A maintenance request with its rows capped at what one object call's CPU time carries (platform-limits/cpu-sizing.ts). */
export function maintenanceWithinCpu(config: Config, request: MaintenanceRequest): MaintenanceRequest {
  return maintenanceRowsByCpu(config.PLATFORM_LIMITS, request);
}

/** Refuses an import request of more items than one invocation's CPU time carries (platform-limits/cpu-sizing.ts). */
export function checkImportCpu(config: Config, size: ImportSize): void {
  refuseImportOverCpu(config.PLATFORM_LIMITS, size);
}

/** Rows one step of a shard move may read within one object call's CPU time (platform-limits/cpu-sizing.ts). */
export function moveStepRows(config: Config): number {
  return moveRowsByCpu(config.PLATFORM_LIMITS);
}

export function shardSettings(config: Config): ShardSettings {
  return { shards: config.MEMORY_SHARDS, weights: config.SHARD_WEIGHTS };
}

/** Every shard that holds memory rows, in MEMORY_SHARDS order (the home database first). */
export function memoryShards(env: Env, config: Config): ShardHome[] {
  return config.MEMORY_SHARDS.map((binding) => ({ binding, db: shardDatabase(env, binding) }));
}

/** One shard by binding name; only a shard MEMORY_SHARDS lists. */
export function memoryShard(env: Env, config: Config, binding: string): ShardHome {
  if (!config.MEMORY_SHARDS.includes(binding)) throw new Error(`"${binding}" is not in MEMORY_SHARDS`);
  return { binding, db: shardDatabase(env, binding) };
}

/** With one shard there is nothing to look up: every owner is on the home database. */
export function onlyShard(env: Env, config: Config): ShardHome | null {
  return config.MEMORY_SHARDS.length === 1 ? memoryShard(env, config, config.MEMORY_SHARDS[0]) : null;
}

/** The shard an owner's rows are on (registering the owner, and placing its account, on first use). */
export async function ownerShard(env: Env, config: Config, owner: Owner): Promise<ShardHome> {
  return onlyShard(env, config) ?? resolveOwnerShard(env, shardSettings(config), owner, Date.now());
}

/** The shard an export reads an owner's rows from (refused while the owner's account moves). */
export async function ownerShardForRead(env: Env, config: Config, owner: Owner): Promise<ShardHome> {
  return onlyShard(env, config) ?? readableOwnerShard(env, shardSettings(config), owner);
}
