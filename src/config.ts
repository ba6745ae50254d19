/**
 * @module config
 * The one config loader: wrangler vars and secrets parsed once per env with zod into typed config,
 * the core settings and the OAuth ones alike. Unknown or malformed values fail loudly at startup
 * instead of degrading silently; the error names the setting and the rule, never the value (some
 * are secrets).
 */
import { z } from "zod";
import { principalIdSchema } from "./memory/ids";
import type { LifecyclePolicy } from "./memory/lifecycle/lifecycle-types";
import { EXCERPT_TOKENS, FIRST_CALL_TOKENS } from "./memory/recall/progressive-injection";
import { isTimeZone } from "./memory/text/relative-dates";
import { DEFAULT_PLATFORM_LIMITS, platformLimitsSchema } from "./platform-limits/platform-limits";
import { LOCAL_HASH_DIMENSIONS } from "./providers/local-hash-embedder";
import {
  DEFAULT_LLM_MODEL,
  EMBEDDING_MODELS,
  isEmbeddingModel,
  isLlmModel,
  isRerankerModel,
  LLM_MODELS,
  RERANKER_MODELS,
  unsupportedModel,
} from "./providers/workers-ai-models";
import { localIndexBytesPerVector } from "./storage/vectors/local-vector-index";

/** Memory one user's local index may hold: 100k × 384-d memories (int8) fit, with room for the rest of the object. */
export const LOCAL_INDEX_BUDGET_BYTES = 48 * 1024 * 1024;

const onOff = z.enum(["on", "off"]);
const intFrom = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

/** One retention rule as written in RETENTION_RULES (JSON, snake_case); see docs/lifecycle.md. */
const retentionRule = z
  .object({
    category: z.string().trim().min(1).max(50).optional(),
    memory_type: z.enum(["semantic", "episodic"]).optional(),
    days: z.number().int().min(0).max(36_500),
    keep_priority_at_most: z.number().int().min(1).max(5).optional(),
  })
  .strict()
  .refine((r) => r.category !== undefined || r.memory_type !== undefined, {
    message: "each rule needs category or memory_type (a rule for every memory is not allowed)",
  });

/** RETENTION_RULES: a JSON array of rules, e.g. [{"memory_type":"episodic","days":90,"keep_priority_at_most":1}]. */
const retentionRules = z
  .string()
  .transform((text, ctx) => {
    if (text.trim() === "") return [];
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON array of retention rules" });
      return z.NEVER;
    }
  })
  .pipe(z.array(retentionRule).max(20, "at most 20 rules"));

/** CORS_ORIGINS: "*" or comma-separated origins such as https://app.example.com (scheme://host[:port], no path). */
const corsOrigins = z.string().transform((text, ctx): string[] | "*" => {
  const list = text
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  if (list.length === 0 || list.includes("*")) return "*";
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      ctx.addIssue({ code: "custom", message: `"${origin}" is not an origin (scheme://host[:port], no path)` });
      return z.NEVER;
    }
  }
  return list;
});

/** The base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1. */
const openAiBaseUrl = z.url({
  protocol: /^https?$/,
  error: "must be an http(s) URL such as http://127.0.0.1:11434/v1",
});

/** A D1 binding name as wrangler.toml spells it (DB, DB_SHARD_1). */
const BINDING_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A JSON var parsed before its schema runs; the message names the shape expected. */
const jsonText = (shape: string) =>
  z.string().transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: `must be ${shape}` });
      return z.NEVER;
    }
  });

/**
 * MEMORY_SHARDS: the D1 bindings that hold memory rows, as a JSON array (docs/shards.md). The first is
 * the home database `DB`, which also holds keys, sessions and the shard directory.
 */
const memoryShards = jsonText('a JSON array of D1 binding names, e.g. ["DB","DB_SHARD_1"]').pipe(
  z
    .array(z.string().regex(BINDING_NAME, "each entry is a D1 binding name (A-Z, 0-9, _)"))
    .min(1, "needs at least the home database DB")
    .max(64, "at most 64 shards")
    .refine((list) => list[0] === "DB", { message: 'the first shard must be the home database "DB"' })
    .refine((list) => new Set(list).size === list.length, { message: "a binding is listed twice" }),
);

/** SHARD_WEIGHTS: {"DB_SHARD_1": 2} takes new accounts twice as readily; 0 closes a shard to new accounts. */
const shardWeights = jsonText('a JSON object of binding → weight, e.g. {"DB":0}').pipe(
  z.record(z.string().regex(BINDING_NAME, "keys are D1 binding names"), z.number().min(0).max(1000)),
);

/**
 * VECTORIZE_BY_SHARD: which Vectorize binding holds the vectors of each shard's owners, e.g.
 * {"DB_SHARD_1":"VECTORIZE_SHARD_1"}; a shard not named uses VECTORIZE. One index holds at most 10 M
 * vectors (docs/shards.md, "Vectorize past 10 M vectors"), so each shard can have its own.
 */
const vectorizeByShard = jsonText(
  'a JSON object of D1 binding → Vectorize binding, e.g. {"DB_SHARD_1":"VECTORIZE_SHARD_1"}',
).pipe(
  z.record(
    z.string().regex(BINDING_NAME, "keys are D1 binding names"),
    z.string().regex(BINDING_NAME, "values are Vectorize binding names (A-Z, 0-9, _)"),
  ),
);

const baseSchema = z.object({
  EMBEDDING_PROVIDER: z.enum(["workers-ai", "openai-compatible", "local"]).default("local"),
  EMBEDDING_MODEL: z.string().min(1).default("local-hash-v1"),
  EMBEDDING_DIMENSIONS: intFrom(0, 0, 4096),
  VECTOR_INDEX: z.enum(["vectorize", "local"]).default("local"),
  RERANKER: z.enum(["workers-ai", "none"]).default("none"),
  RERANKER_MODEL: z.string().min(1).default("@cf/baai/bge-reranker-base"),
  LLM_PROVIDER: z.enum(["workers-ai", "openai-compatible", "rules"]).default("rules"),
  LLM_MODEL: z.string().min(1).default(DEFAULT_LLM_MODEL),
  // OpenAI-compatible servers (Ollama, vLLM, LM Studio, AI Gateway): the URL before /embeddings or
  // /chat/completions, and the Bearer keys (wrangler secrets; optional for Ollama).
  EMBEDDING_BASE_URL: openAiBaseUrl.optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  LLM_BASE_URL: openAiBaseUrl.optional(),
  LLM_API_KEY: z.string().optional(),
  MAX_RESULTS: intFrom(5, 1, 50),
  PROGRESSIVE_INJECTION: onOff.default("on"),
  PROGRESSIVE_RESET_SECONDS: intFrom(300, 0, 86_400),
  // Estimated tokens the first recall of a session may spend on memories (progressive-injection.ts).
  PROGRESSIVE_FIRST_CALL_TOKENS: intFrom(FIRST_CALL_TOKENS, 20, 4_000),
  // Longest excerpt stages 1–2 show of one memory, in estimated tokens; 0 = whole memories.
  PROGRESSIVE_EXCERPT_TOKENS: intFrom(EXCERPT_TOKENS, 0, 4_000),
  // Least share of a query's idf-weighted tokens a memory must hold for recall to answer
  // (recall/abstention.ts); unset: retrieval-weights.ts's measured value.
  RECALL_ABSTAIN_COVERAGE: z.coerce.number().min(0).max(1).optional(),
  /**
   * The entity channel of recall (memory/recall/entity-channel.ts). Off by default: on LoCoMo dev it
   * moves R@10 by +0.2 points for two more D1 round trips per recall (docs/benchmarks.md, "Entities").
   */
  RECALL_ENTITIES: onOff.default("off"),
  /**
   * A relation word in a recall query ("my best friend", 「我闺蜜」) resolved through the entities'
   * aliases to the person it names (memory/recall/relation-words-recall.ts): one D1 statement, only
   * when the query has such a word. On by default, independent of RECALL_ENTITIES.
   */
  RECALL_RELATIONS: onOff.default("on"),
  // The time zone relative dates in saved text are read in when a call gives none ("tomorrow" is
  // this zone's tomorrow; memory/write/event-date.ts). An IANA name.
  TIME_ZONE: z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin").default("UTC"),
  RECALL_ABSTAIN_COVERAGE_CJK: z.coerce.number().min(0).max(1).optional(),
  SOFT_DELETE_RETENTION_DAYS: intFrom(30, 0, 3650),
  CONFIDENCE_FLOOR: z.coerce.number().min(0).max(1).default(0.6),
  // Measured for the embedder this deployment runs (`npm run calibrate`); unset: the per-embedder
  // defaults of memory/retrieval-weights.ts and memory/write/near-duplicate.ts.
  DENSE_RELEVANCE_FLOOR: z.coerce.number().min(0).max(1).optional(),
  NEAR_DUPLICATE_COSINE: z.coerce.number().min(0).max(1).optional(),
  LONG_CONTENT_CHARS: intFrom(500, 50, 8000),
  IMPORTANCE_HALF_LIFE_DAYS: intFrom(30, 1, 3650),
  RETENTION_RULES: retentionRules.default([]),
  // Lifecycle batch bounds (docs/lifecycle.md). A cron under an hour may run 30 s; stay well inside.
  LIFECYCLE_BATCH_SIZE: intFrom(100, 1, 100),
  LIFECYCLE_RUN_BUDGET_MS: intFrom(20_000, 2_000, 25_000),
  LIFECYCLE_USER_BUDGET_MS: intFrom(8_000, 500, 25_000),
  LIFECYCLE_USER_MAX_ROWS: intFrom(2_000, 1, 100_000),
  LIFECYCLE_USERS_PER_RUN: intFrom(50, 1, 1_000),
  LIFECYCLE_CONCURRENCY: intFrom(6, 1, 32),
  // Vectors the local index may hold per user; required when the vectors have more than 384 dimensions.
  LOCAL_INDEX_MAX_VECTORS: intFrom(0, 0, 1_000_000),
  // Rows per D1 batch of a bulk import (a few multi-row statements): bounds the time one batch holds D1.
  IMPORT_BATCH_ROWS: intFrom(500, 1, 5_000),
  TOOL_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]*$/, "letters, digits, _ and - only")
    .default(""),
  SERVER_NAME: z.string().min(1).default("hippocampus"),
  // Development-only fault injection (storage/dev-fault-vector-index.ts, providers/dev-fault-embedder.ts):
  // honoured only with the local vector index. The reliability run sets them with --var; no wrangler
  // env declares them.
  DEV_FAULTS: onOff.default("off"),
  DEV_FAULT_VECTOR_INDEX_UNTIL: z.coerce.number().int().min(0).default(0),
  DEV_FAULT_EMBEDDER_UNTIL: z.coerce.number().int().min(0).default(0),
  LOCALE: z.enum(["en", "zh"]).default("en"),
  // What the local runtime refuses as production does (platform-limits/): paid | free | off | {"d1_queries_per_invocation": 20}.
  PLATFORM_LIMITS: platformLimitsSchema.default(DEFAULT_PLATFORM_LIMITS),
  // Shards (docs/shards.md): which D1 bindings hold memory rows, and how readily each takes new accounts.
  MEMORY_SHARDS: memoryShards.default(["DB"]),
  SHARD_WEIGHTS: shardWeights.default({}),
  VECTORIZE_BY_SHARD: vectorizeByShard.default({}),
  // Secret (wrangler secret put): enables /admin/shards for `npm run shards`. Unset: those routes are 404.
  ADMIN_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Origins browser MCP clients may call /mcp from: "*" (default) or a comma-separated list of origins.
  // A list also refuses any other Origin on the non-cookie routes (http/host-origin-guard.ts).
  CORS_ORIGINS: corsOrigins.default("*"),
  // "on" when the server is reached on a loopback address (wrangler dev): a Host or Origin that is not
  // localhost, 127.0.0.1 or [::1] is refused (DNS-rebinding protection, http/host-origin-guard.ts).
  LOOPBACK_ONLY: onOff.default("off"),
  // The memory router (docs/router.md): POST /v1/chat/completions and GET /v1/models go to this
  // OpenAI-compatible server (the URL before /chat/completions) with the secret ROUTER_UPSTREAM_API_KEY,
  // or to Workers AI through the AI binding (ROUTER_UPSTREAM=workers-ai). Unset: both answer 503.
  ROUTER_UPSTREAM: z.enum(["openai-compatible", "workers-ai"]).default("openai-compatible"),
  ROUTER_UPSTREAM_BASE_URL: openAiBaseUrl.optional(),
  ROUTER_UPSTREAM_API_KEY: z.string().optional(),
  // POST /v1/messages (Anthropic's API) goes to this server (the URL before /messages, e.g.
  // https://api.anthropic.com/v1) with the secret ROUTER_ANTHROPIC_API_KEY. Unset: that route answers 503.
  ROUTER_ANTHROPIC_BASE_URL: openAiBaseUrl.optional(),
  ROUTER_ANTHROPIC_API_KEY: z.string().optional(),
  // Estimated tokens the injected system message (frame and memories) may take.
  ROUTER_MEMORY_TOKENS: intFrom(400, 100, 8_000),
  // Longest a routed request may take, streaming included, and the largest body it may send (images too).
  ROUTER_TIMEOUT_SECONDS: intFrom(300, 5, 900),
  ROUTER_MAX_BODY_BYTES: intFrom(8_388_608, 65_536, 33_554_432),
  // OAuth (src/http/oauth): the public URL that pins issuer and resources, and the optional
  // single-user passphrase (a wrangler secret) with the account and user it signs in as.
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "Public origin of this deployment (https://memory.example.com); pins the OAuth issuer. Unset: taken from each request",
    ),
  OAUTH_PASSPHRASE: z
    .string()
    .min(12, "must be at least 12 characters")
    .optional()
    .describe("Secret for a single-user deployment: typed on the authorization page instead of a user key"),
  OAUTH_PASSPHRASE_USER: principalIdSchema.default("owner").describe("User the passphrase signs in as"),
  OAUTH_PASSPHRASE_ACCOUNT: principalIdSchema.default("default").describe("Account the passphrase signs in as"),
});

const configSchema = baseSchema
  .superRefine(checkWorkersAiModels)
  .superRefine(checkOpenAiCompatible)
  .superRefine(checkLocalIndexSize)
  .superRefine(checkShardWeights);

/**
 * An OpenAI-compatible provider needs its server's URL; an embedder also the vector size its model
 * returns (the index is built for it, and every answer is checked against it) and a model name.
 */
function checkOpenAiCompatible(c: z.output<typeof baseSchema>, ctx: z.RefinementCtx): void {
  const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (c.EMBEDDING_PROVIDER === "openai-compatible") {
    if (!c.EMBEDDING_BASE_URL) fail("EMBEDDING_BASE_URL", "is required with EMBEDDING_PROVIDER=openai-compatible");
    if (!c.EMBEDDING_DIMENSIONS)
      fail("EMBEDDING_DIMENSIONS", "is required with EMBEDDING_PROVIDER=openai-compatible (the model's vector size)");
    if (c.EMBEDDING_MODEL === "local-hash-v1")
      fail(
        "EMBEDDING_MODEL",
        "must name the server's embedding model (e.g. bge-m3) with EMBEDDING_PROVIDER=openai-compatible",
      );
  }
  if (c.LLM_PROVIDER === "openai-compatible" && !c.LLM_BASE_URL)
    fail("LLM_BASE_URL", "is required with LLM_PROVIDER=openai-compatible");
}

/** Weights name listed shards, and at least one shard takes new accounts. */
function checkShardWeights(c: z.output<typeof baseSchema>, ctx: z.RefinementCtx): void {
  const fail = (message: string) => ctx.addIssue({ code: "custom", path: ["SHARD_WEIGHTS"], message });
  const unknown = Object.keys(c.SHARD_WEIGHTS).find((b) => !c.MEMORY_SHARDS.includes(b));
  if (unknown) fail(`"${unknown}" is not in MEMORY_SHARDS`);
  else if (c.MEMORY_SHARDS.every((b) => (c.SHARD_WEIGHTS[b] ?? 1) === 0))
    fail("every shard has weight 0: no shard would take a new account");
  const stray = Object.keys(c.VECTORIZE_BY_SHARD).find((b) => !c.MEMORY_SHARDS.includes(b));
  if (stray)
    ctx.addIssue({ code: "custom", path: ["VECTORIZE_BY_SHARD"], message: `"${stray}" is not in MEMORY_SHARDS` });
}

/** Vector size the configured embedder produces. */
export function embeddingDimensions(c: {
  EMBEDDING_PROVIDER: string;
  EMBEDDING_MODEL: string;
  EMBEDDING_DIMENSIONS: number;
}): number {
  if (c.EMBEDDING_DIMENSIONS) return c.EMBEDDING_DIMENSIONS;
  if (c.EMBEDDING_PROVIDER === "workers-ai" && isEmbeddingModel(c.EMBEDDING_MODEL))
    return EMBEDDING_MODELS[c.EMBEDDING_MODEL];
  return LOCAL_HASH_DIMENSIONS;
}

/**
 * The local index keeps every vector of a user in the object's memory (an isolate has 128 MB, shared
 * by the objects it hosts). Above the hash embedder's 384 dimensions it needs an explicit bound,
 * LOCAL_INDEX_MAX_VECTORS, and that bound must fit LOCAL_INDEX_BUDGET_BYTES.
 */
function checkLocalIndexSize(c: z.output<typeof baseSchema>, ctx: z.RefinementCtx): void {
  if (c.VECTOR_INDEX !== "local") return;
  const dims = embeddingDimensions(c);
  const max = c.LOCAL_INDEX_MAX_VECTORS;
  const perVector = localIndexBytesPerVector(dims);
  const fail = (message: string) => ctx.addIssue({ code: "custom", path: ["LOCAL_INDEX_MAX_VECTORS"], message });
  if (max === 0 && dims > LOCAL_HASH_DIMENSIONS)
    fail(
      `VECTOR_INDEX=local with ${dims}-dimension vectors keeps ~${perVector} bytes per memory in the Durable Object's memory: set LOCAL_INDEX_MAX_VECTORS (at most ${Math.floor(LOCAL_INDEX_BUDGET_BYTES / perVector)}) or use VECTOR_INDEX=vectorize`,
    );
  else if (max * perVector > LOCAL_INDEX_BUDGET_BYTES)
    fail(
      `LOCAL_INDEX_MAX_VECTORS=${max} × ${perVector} bytes (${dims} dimensions) exceeds the ${LOCAL_INDEX_BUDGET_BYTES / 1024 / 1024} MiB a user's local index may hold; at most ${Math.floor(LOCAL_INDEX_BUDGET_BYTES / perVector)}`,
    );
}

/** A Workers AI provider must name a model the installed workers-types still list (providers/workers-ai-models.ts). */
function checkWorkersAiModels(c: z.output<typeof baseSchema>, ctx: z.RefinementCtx): void {
  const fail = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (c.LLM_PROVIDER === "workers-ai" && !isLlmModel(c.LLM_MODEL))
    fail("LLM_MODEL", unsupportedModel("LLM_MODEL", c.LLM_MODEL, LLM_MODELS));
  if (c.EMBEDDING_PROVIDER === "workers-ai" && !isEmbeddingModel(c.EMBEDDING_MODEL))
    fail("EMBEDDING_MODEL", unsupportedModel("EMBEDDING_MODEL", c.EMBEDDING_MODEL, Object.keys(EMBEDDING_MODELS)));
  if (c.RERANKER === "workers-ai" && !isRerankerModel(c.RERANKER_MODEL))
    fail("RERANKER_MODEL", unsupportedModel("RERANKER_MODEL", c.RERANKER_MODEL, RERANKER_MODELS));
}

export type Config = z.infer<typeof configSchema>;

const cache = new WeakMap<object, Config>();

export function loadConfig(env: object): Config {
  const hit = cache.get(env);
  if (hit) return hit;
  const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === "string" && v !== ""));
  const parsed = configSchema.safeParse(vars);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Never echo the value: OAUTH_PASSPHRASE is a secret.
    throw new Error(`Invalid config ${issue.path.join(".")}: ${issue.message}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
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

/** The Vectorize binding that holds the vectors of `shard`'s owners (VECTORIZE_BY_SHARD, else VECTORIZE). */
export function vectorizeBindingOf(config: Config, shard: string): string {
  return config.VECTORIZE_BY_SHARD[shard] ?? "VECTORIZE";
}

/** Each Vectorize binding in use and the shards whose owners it holds (VECTOR_INDEX=vectorize; none otherwise). */
export function vectorIndexBindings(config: Config): { binding: string; shards: string[] }[] {
  if (config.VECTOR_INDEX !== "vectorize") return [];
  const by = new Map<string, string[]>();
  for (const shard of config.MEMORY_SHARDS) {
    const b = vectorizeBindingOf(config, shard);
    by.set(b, [...(by.get(b) ?? []), shard]);
  }
  return [...by].map(([binding, shards]) => ({ binding, shards }));
}

/** True when an owner moving from shard `a` to `b` keeps its vectors where they are (one index for both, or no Vectorize). */
export function sameVectorIndex(config: Config, a: string, b: string): boolean {
  return config.VECTOR_INDEX !== "vectorize" || vectorizeBindingOf(config, a) === vectorizeBindingOf(config, b);
}
