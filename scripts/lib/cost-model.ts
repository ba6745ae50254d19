/**
 * @module scripts/lib/cost-model
 * What a month of Hippocampus costs on Cloudflare, as a pure function (`npm run cost`, scripts/cost.ts):
 * usage (memories, saves, recalls per user; users; plan; dimensions) times the per-operation figures the
 * benchmarks measured (PER_OPERATION, each with its source) against a dated price table (PRICES, each
 * line with its page). Every billed line: Workers requests and CPU, Durable Object requests and duration,
 * the Durable Object's own SQLite rows and stored data, D1 rows read and written and storage, Vectorize queried and stored dimensions, Workers AI neurons per
 * model, KV reads and writes. Paid: the cost beyond the plan's included usage, for the first user and
 * for each further user; Free: each line's use against its daily or monthly limit. No I/O here.
 */

export type Plan = "paid" | "free";

export interface Usage {
  /** Memories one user holds (each one stored vector). */
  memories: number;
  /** save_memory calls per user per month. */
  saves: number;
  /** recall_memory calls per user per month. */
  recalls: number;
  users: number;
  plan: Plan;
  /** Dimensions of the embedding model (bge-m3: 1,024). */
  dimensions: number;
  /** `vectorize` (VECTOR_INDEX=vectorize) or `local` (the in-object index: no Vectorize line). */
  vectorIndex: "vectorize" | "local";
  /** RERANKER=workers-ai (bge-reranker-base on every recall) or none. */
  reranker: boolean;
  /** Workers AI embeddings (EMBEDDING_PROVIDER=workers-ai) or the offline/other embedder (no neurons). */
  workersAiEmbeddings: boolean;
  /** LLM_PROVIDER=workers-ai (GLM-4.7-Flash on long saves and conflicts) or rules (no neurons). */
  llm: boolean;
  /** How clients sign in: OAuth reads its token from KV on every request; an API key is checked in D1. */
  auth: "oauth" | "key";
}

export const DEFAULT_USAGE: Usage = {
  memories: 11_000,
  saves: 1_000,
  recalls: 10_000,
  users: 1,
  plan: "paid",
  dimensions: 1024,
  vectorIndex: "vectorize",
  reranker: true,
  workersAiEmbeddings: true,
  llm: true,
  auth: "oauth",
};

/**
 * The free profile (docs/deploying.md, "The free profile"): the in-object index instead of Vectorize,
 * no reranker, the rules instead of the LLM, bge-m3 still embedding.
 */
export const FREE_PROFILE: Pick<Usage, "plan" | "vectorIndex" | "reranker" | "llm"> = {
  plan: "free",
  vectorIndex: "local",
  reranker: false,
  llm: false,
};

/** A figure with where it comes from. */
interface Sourced {
  value: number;
  source: string;
}

/**
 * Per-operation figures, measured by the benchmarks (docs/benchmarks.md) unless the source says
 * "estimate". Rows per recall depend on the store's size: measured at 1k, 10k and 100k memories.
 */
export const PER_OPERATION = {
  /** D1 rows read per recall at 1k / 10k / 100k memories (bench:compare, 2026-12-02 06:23 UTC). */
  recallRowsRead: {
    points: [
      [1_000, 173],
      [10_000, 506],
      [100_000, 835],
    ] as readonly (readonly [number, number])[],
    source: "bench:compare, docs/benchmarks.md “D1 rows per operation”, 2026-12-02",
  },
  /** A save of an English sentence naming a person (its entity rows too): bench:cpu --requests, p50 of the higher run. */
  saveRowsRead: {
    value: 272,
    source: "bench:cpu --requests at 5,000 memories, 2026-12-04 (233–272 p50; bench:compare's synthetic saves: 179)",
  },
  saveRowsWritten: { value: 28, source: "bench:cpu --requests, 2026-12-04 (bench:compare's synthetic saves: 19)" },
  recallRowsWritten: { value: 0, source: "bench:compare (0.0 at every size)" },
  /** Isolate CPU per request, ms, p50 (bench:cpu --requests). */
  saveCpuMs: {
    value: 5,
    source:
      "bench:cpu --requests, p50 4.9–5.1 ms over two runs, 2026-12-04 (docs/benchmarks.md “CPU per request kind”)",
  },
  recallCpuMs: { value: 3, source: "bench:cpu --requests, p50 2.9–3.0 ms over two runs, 2026-12-04" },
  /** The Durable Object's wall time per call (Server-Timing `do`), ms: what its duration bills. */
  saveDoMs: { value: 28, source: "bench:cpu --requests, Server-Timing do p50 21–28 ms, 2026-12-04" },
  recallDoMs: { value: 6, source: "bench:cpu --requests, Server-Timing do p50 6 ms, 2026-12-04" },
  /**
   * The Durable Object's own SQLite (Server-Timing do-sql-rows-*): a recall advances its session counter
   * (progressive recall) whatever the index; a save writes its vector there only with the in-object index.
   */
  recallDoSqlRowsRead: { value: 3, source: "bench:cpu --requests 20 at 5,000 memories, p50, 2026-12-05" },
  recallDoSqlRowsWritten: { value: 3, source: "bench:cpu --requests 20 at 5,000 memories, p50, 2026-12-05" },
  saveDoSqlRowsWrittenLocal: {
    value: 2,
    source: "bench:cpu --requests 20 at 5,000 memories (in-object index), p50, 2026-12-05",
  },
  saveDoSqlRowsWrittenVectorize: {
    value: 0,
    source: "storage/object/: with Vectorize a save writes nothing in the object (an idempotency key aside)",
  },
  /** The day's usage record: one key-value put per call (billed as a row written; durable/daily-usage-record.ts). */
  usageRowsWrittenPerCall: { value: 1, source: "durable/daily-usage-record.ts (one put at the end of each call)" },
  /** Object starts: each reads its few keys and, with the in-object index, every stored vector once. */
  objectStartsPerMonth: { value: 300, source: "estimate: about ten object starts a day of use" },
  objectStartKeyReads: { value: 3, source: "durable/user-memory.ts (owner, crossing state, day's usage)" },
  /** One stored vector in the object: 1,024 int8 dimensions, a scale, the id and owner, SQLite's row overhead. */
  localVectorBytes: { value: 1_150, source: "estimate: storage/vectors/local-vector-index.ts row at 1,024 dimensions" },
  /** An object's SQLite holding nothing but its small tables (Durable Objects FAQ: an empty database ≈ 12 KB). */
  emptyObjectBytes: { value: 12_000, source: "developers.cloudflare.com/durable-objects/reference/faq/" },
  /** Vectorize queries: a recall queries once; a save once (its near-duplicate and conflict check). */
  recallVectorQueries: { value: 1, source: "memory/recall/recall-memories.ts" },
  saveVectorQueries: { value: 1, source: "memory/write/similar-memories.ts" },
  /** Tokens: a 100-character memory, a short question; the reranker reads the query with 20 candidates. */
  saveEmbedTokens: { value: 25, source: "estimate: a 100-character memory" },
  recallEmbedTokens: { value: 10, source: "estimate: a short question" },
  recallRerankTokens: { value: 700, source: "estimate: the query with 20 candidates of ~35 tokens" },
  /** GLM-4.7-Flash on a save: long saves and conflicts only. */
  saveLlmCalls: { value: 0.2, source: "estimate: one save in five is long or meets a conflict" },
  llmInputTokens: { value: 800, source: "estimate: the prompt with the memory and its candidates" },
  llmOutputTokens: { value: 200, source: "estimate: a JSON decision" },
  /** D1 bytes per memory with its FTS row, history and indexes (bench:row-size, 2026-11-30). */
  bytesPerMemory: { value: 3_431, source: "bench:row-size, docs/shards.md §1, 2026-11-30" },
  /** OAuth: one KV read per request (the token); a refresh each hour of use writes the token and grant. */
  oauthKvReadsPerRequest: { value: 1, source: "@cloudflare/workers-oauth-provider 1.2.3 (token lookup)" },
  oauthRefreshesPerMonth: { value: 720, source: "estimate: a client connected all month, 1 h access tokens" },
  oauthKvWritesPerRefresh: { value: 2, source: "@cloudflare/workers-oauth-provider 1.2.3 (token and grant)" },
  /** The Cron Trigger (*∕15 * * * *): account-wide, whatever the users. */
  cronRunsPerMonth: { value: 2_880, source: "wrangler.toml crons, 4 an hour × 720 h" },
} satisfies Record<string, Sourced | { points: readonly (readonly [number, number])[]; source: string }>;

export type PerOperation = typeof PER_OPERATION;

/** One price or allowance as a page states it. */
interface Price {
  /** Included per month on Workers Paid (0: none). */
  paidIncluded: number;
  /** USD per unit beyond it. */
  paidPerUnit: number;
  /** Workers Free: the limit, and whether it is per day, per month or a total. */
  freeLimit: number;
  freePer: "day" | "month" | "total";
  page: string;
}

/** Read 2026-12-04 unless the line says otherwise; every number from the page named beside it. */
export const PRICES = {
  read: "2026-12-04",
  subscription: { usd: 5, page: "https://developers.cloudflare.com/workers/platform/pricing/" },
  workersRequests: {
    paidIncluded: 10_000_000,
    paidPerUnit: 0.3 / 1e6,
    freeLimit: 100_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/workers/platform/pricing/",
  },
  workersCpuMs: {
    paidIncluded: 30_000_000,
    paidPerUnit: 0.02 / 1e6,
    freeLimit: Number.POSITIVE_INFINITY,
    freePer: "month",
    page: "https://developers.cloudflare.com/workers/platform/pricing/",
  },
  doRequests: {
    paidIncluded: 1_000_000,
    paidPerUnit: 0.15 / 1e6,
    freeLimit: 100_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  },
  doGbSeconds: {
    paidIncluded: 400_000,
    paidPerUnit: 12.5 / 1e6,
    freeLimit: 13_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  },
  /**
   * SQLite-backed Durable Object storage, billed since January 2026 (Durable Objects release notes,
   * 2026-01-07): rows and stored data at D1's rates and allowances, metered apart from D1's (read
   * 2026-12-05, cloudflare-docs src/content/partials/durable-objects/durable-objects-pricing.mdx).
   */
  doRowsRead: {
    paidIncluded: 25_000_000_000,
    paidPerUnit: 0.001 / 1e6,
    freeLimit: 5_000_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/durable-objects/platform/pricing/ (read 2026-12-05)",
  },
  doRowsWritten: {
    paidIncluded: 50_000_000,
    paidPerUnit: 1 / 1e6,
    freeLimit: 100_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/durable-objects/platform/pricing/ (read 2026-12-05)",
  },
  doStorageGb: {
    paidIncluded: 5,
    paidPerUnit: 0.2,
    freeLimit: 5,
    freePer: "total",
    page: "https://developers.cloudflare.com/durable-objects/platform/pricing/ (read 2026-12-05)",
  },
  d1RowsRead: {
    paidIncluded: 25_000_000_000,
    paidPerUnit: 0.001 / 1e6,
    freeLimit: 5_000_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/d1/platform/pricing/",
  },
  d1RowsWritten: {
    paidIncluded: 50_000_000,
    paidPerUnit: 1 / 1e6,
    freeLimit: 100_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/d1/platform/pricing/",
  },
  d1StorageGb: {
    paidIncluded: 5,
    paidPerUnit: 0.75,
    freeLimit: 5,
    freePer: "total",
    page: "https://developers.cloudflare.com/d1/platform/pricing/",
  },
  vectorizeQueriedDims: {
    paidIncluded: 50_000_000,
    paidPerUnit: 0.01 / 1e6,
    freeLimit: 30_000_000,
    freePer: "month",
    page: "https://developers.cloudflare.com/vectorize/platform/pricing/",
  },
  vectorizeStoredDims: {
    paidIncluded: 10_000_000,
    paidPerUnit: 0.05 / 1e8,
    freeLimit: 5_000_000,
    freePer: "total",
    page: "https://developers.cloudflare.com/vectorize/platform/pricing/",
  },
  /** Workers AI: 10,000 neurons a day on both plans (300,000 a month when spread evenly), then $0.011 / 1,000. */
  neurons: {
    paidIncluded: 300_000,
    paidPerUnit: 0.011 / 1000,
    freeLimit: 10_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/workers-ai/platform/pricing/",
  },
  kvReads: {
    paidIncluded: 10_000_000,
    paidPerUnit: 0.5 / 1e6,
    freeLimit: 100_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/kv/platform/pricing/",
  },
  kvWrites: {
    paidIncluded: 1_000_000,
    paidPerUnit: 5 / 1e6,
    freeLimit: 1_000,
    freePer: "day",
    page: "https://developers.cloudflare.com/kv/platform/pricing/",
  },
  /** Neurons per million tokens: the model page's USD price ÷ $0.011 per 1,000 neurons. */
  models: {
    "bge-m3": { usdPerMTokens: 0.0118, page: "https://developers.cloudflare.com/workers-ai/models/bge-m3/" },
    "bge-reranker-base": {
      usdPerMTokens: 0.0031,
      page: "https://developers.cloudflare.com/workers-ai/models/bge-reranker-base/ (read 2026-12-01)",
    },
    "glm-4.7-flash": {
      usdPerMTokens: 0.0605,
      usdPerMOutputTokens: 0.4,
      page: "https://developers.cloudflare.com/workers-ai/models/glm-4.7-flash/",
    },
  },
} as const satisfies Record<string, unknown>;

type PriceKey = {
  [K in keyof typeof PRICES]: (typeof PRICES)[K] extends Price ? K : never;
}[keyof typeof PRICES];

/** DO duration bills 128 MB for as long as the object is active. */
const DO_GB = 0.128;
const DAYS_A_MONTH = 30;
/** Neurons per million tokens: the model's USD per million tokens over the USD one neuron costs. */
export const neuronsPerMTokens = (usd: number): number => usd / PRICES.neurons.paidPerUnit;

export interface CostLine {
  resource: string;
  /** What one operation uses, in words. */
  perOperation: string;
  unit: string;
  /** Use by one user in a month. */
  perUser: number;
  /** Use by the whole account in a month (users × perUser + what does not depend on users). */
  total: number;
  price: PriceKey;
  /** Paid: USD beyond the included usage for the whole account. */
  cost: number;
  /** Paid: USD one more user adds once the included usage is spent. */
  perFurtherUser: number;
  /** Free: the limit and the account's use in its period (per day: the month ÷ 30). */
  freeLimit: number;
  freePer: "day" | "month" | "total";
  freeUse: number;
}

export interface CostReport {
  usage: Usage;
  lines: CostLine[];
  /** Paid: $5 a month for the account. */
  subscription: number;
  /** Paid: subscription + every line's cost, all users. */
  total: number;
  /** Paid: the account's month with one user. */
  firstUser: number;
  /** Paid: what each further user adds once every allowance is spent. */
  perFurtherUser: number;
  /** Free: the lines over their limit, with how many times over. */
  overFree: { resource: string; times: number }[];
  /** Free: the most users the Free plan carries at this usage (the tightest limit). */
  freeUsersFit: number;
}

/** D1 rows one recall reads at `memories`: measured points, log-linear between them, flat outside. */
export function recallRowsRead(memories: number, per: PerOperation = PER_OPERATION): number {
  const pts = per.recallRowsRead.points;
  if (memories <= pts[0][0]) return pts[0][1];
  for (let i = 1; i < pts.length; i++) {
    const [x1, y1] = pts[i];
    if (memories <= x1) {
      const [x0, y0] = pts[i - 1];
      const t = Math.log(memories / x0) / Math.log(x1 / x0);
      return y0 + t * (y1 - y0);
    }
  }
  return pts[pts.length - 1][1];
}

/** Vectorize's own formula: queried dimensions = (queries + stored vectors) × dimensions. */
export const vectorizeQueriedDimensions = (queries: number, storedVectors: number, dimensions: number): number =>
  (queries + storedVectors) * dimensions;

/** Stored dimensions = vectors × dimensions. */
export const vectorizeStoredDimensions = (vectors: number, dimensions: number): number => vectors * dimensions;

interface Quantity {
  resource: string;
  perOperation: string;
  unit: string;
  perUser: number;
  /** Account-wide, whatever the number of users. */
  fixed?: number;
  price: PriceKey;
}

function quantities(u: Usage, per: PerOperation): Quantity[] {
  const ops = u.saves + u.recalls;
  const v = (s: Sourced) => s.value;
  const rowsPerRecall = recallRowsRead(u.memories, per);
  const q: Quantity[] = [
    {
      resource: "Workers requests",
      perOperation: "1 per tool call; the Cron 4 an hour (account)",
      unit: "requests",
      perUser: ops,
      fixed: v(per.cronRunsPerMonth),
      price: "workersRequests",
    },
    {
      resource: "Workers CPU",
      perOperation: `save ${v(per.saveCpuMs)} ms, recall ${v(per.recallCpuMs)} ms`,
      unit: "CPU ms",
      perUser: u.saves * v(per.saveCpuMs) + u.recalls * v(per.recallCpuMs),
      price: "workersCpuMs",
    },
    {
      resource: "Durable Object requests",
      perOperation: "1 per tool call (one RPC)",
      unit: "requests",
      perUser: ops,
      price: "doRequests",
    },
    {
      resource: "Durable Object duration",
      perOperation: `save ${v(per.saveDoMs)} ms, recall ${v(per.recallDoMs)} ms active × 128 MB`,
      unit: "GB-s",
      perUser: ((u.saves * v(per.saveDoMs) + u.recalls * v(per.recallDoMs)) / 1000) * DO_GB,
      price: "doGbSeconds",
    },
    ...objectStorage(u, per),
    {
      resource: "D1 rows read",
      perOperation: `recall ${Math.round(rowsPerRecall)} at ${u.memories.toLocaleString("en-US")} memories, save ${v(per.saveRowsRead)}`,
      unit: "rows",
      perUser: u.recalls * rowsPerRecall + u.saves * v(per.saveRowsRead),
      price: "d1RowsRead",
    },
    {
      resource: "D1 rows written",
      perOperation: `save ${v(per.saveRowsWritten)}, recall ${v(per.recallRowsWritten)}`,
      unit: "rows",
      perUser: u.saves * v(per.saveRowsWritten) + u.recalls * v(per.recallRowsWritten),
      price: "d1RowsWritten",
    },
    {
      resource: "D1 storage",
      perOperation: `${v(per.bytesPerMemory).toLocaleString("en-US")} bytes a memory`,
      unit: "GB",
      perUser: (u.memories * v(per.bytesPerMemory)) / 1e9,
      price: "d1StorageGb",
    },
  ];
  if (u.vectorIndex === "vectorize") {
    const queries = u.saves * v(per.saveVectorQueries) + u.recalls * v(per.recallVectorQueries);
    q.push(
      {
        resource: "Vectorize queried dimensions",
        perOperation: `(queries + stored vectors) × ${u.dimensions}; a save and a recall query once each`,
        unit: "dimensions",
        perUser: vectorizeQueriedDimensions(queries, u.memories, u.dimensions),
        price: "vectorizeQueriedDims",
      },
      {
        resource: "Vectorize stored dimensions",
        perOperation: `${u.dimensions} per memory`,
        unit: "dimensions",
        perUser: vectorizeStoredDimensions(u.memories, u.dimensions),
        price: "vectorizeStoredDims",
      },
    );
  }
  const m = PRICES.models;
  if (u.workersAiEmbeddings)
    q.push({
      resource: "Workers AI, bge-m3",
      perOperation: `save ${v(per.saveEmbedTokens)} tokens, recall ${v(per.recallEmbedTokens)}`,
      unit: "neurons",
      perUser:
        ((u.saves * v(per.saveEmbedTokens) + u.recalls * v(per.recallEmbedTokens)) / 1e6) *
        neuronsPerMTokens(m["bge-m3"].usdPerMTokens),
      price: "neurons",
    });
  if (u.reranker)
    q.push({
      resource: "Workers AI, bge-reranker-base",
      perOperation: `recall ${v(per.recallRerankTokens)} tokens`,
      unit: "neurons",
      perUser:
        ((u.recalls * v(per.recallRerankTokens)) / 1e6) * neuronsPerMTokens(m["bge-reranker-base"].usdPerMTokens),
      price: "neurons",
    });
  if (u.llm) {
    const calls = u.saves * v(per.saveLlmCalls);
    q.push({
      resource: "Workers AI, glm-4.7-flash",
      perOperation: `${v(per.saveLlmCalls)} calls a save × ${v(per.llmInputTokens)} in + ${v(per.llmOutputTokens)} out tokens`,
      unit: "neurons",
      perUser:
        ((calls * v(per.llmInputTokens)) / 1e6) * neuronsPerMTokens(m["glm-4.7-flash"].usdPerMTokens) +
        ((calls * v(per.llmOutputTokens)) / 1e6) * neuronsPerMTokens(m["glm-4.7-flash"].usdPerMOutputTokens),
      price: "neurons",
    });
  }
  if (u.auth === "oauth")
    q.push(
      {
        resource: "KV reads (OAuth)",
        perOperation: `${v(per.oauthKvReadsPerRequest)} per request (the token)`,
        unit: "reads",
        perUser: ops * v(per.oauthKvReadsPerRequest),
        price: "kvReads",
      },
      {
        resource: "KV writes (OAuth)",
        perOperation: `${v(per.oauthKvWritesPerRefresh)} per token refresh, ${v(per.oauthRefreshesPerMonth)} refreshes`,
        unit: "writes",
        perUser: Math.min(ops, v(per.oauthRefreshesPerMonth)) * v(per.oauthKvWritesPerRefresh),
        price: "kvWrites",
      },
    );
  return q;
}

/** The Durable Object's own SQLite: its rows read and written and its stored data (one object a user). */
function objectStorage(u: Usage, per: PerOperation): Quantity[] {
  const v = (s: Sourced) => s.value;
  const local = u.vectorIndex === "local";
  const starts = v(per.objectStartsPerMonth);
  const saveWrites = local ? v(per.saveDoSqlRowsWrittenLocal) : v(per.saveDoSqlRowsWrittenVectorize);
  return [
    {
      resource: "Durable Object rows read",
      perOperation: `recall ${v(per.recallDoSqlRowsRead)}; ${starts} object starts × ${v(per.objectStartKeyReads)} keys${local ? " + every stored vector" : ""}`,
      unit: "rows",
      perUser:
        u.recalls * v(per.recallDoSqlRowsRead) + starts * (v(per.objectStartKeyReads) + (local ? u.memories : 0)),
      price: "doRowsRead",
    },
    {
      resource: "Durable Object rows written",
      perOperation: `recall ${v(per.recallDoSqlRowsWritten)}, save ${saveWrites}, + ${v(per.usageRowsWrittenPerCall)} a call (the day's usage)`,
      unit: "rows",
      perUser:
        u.recalls * v(per.recallDoSqlRowsWritten) +
        u.saves * saveWrites +
        (u.saves + u.recalls) * v(per.usageRowsWrittenPerCall),
      price: "doRowsWritten",
    },
    {
      resource: "Durable Object stored data",
      perOperation: local
        ? `${v(per.localVectorBytes).toLocaleString("en-US")} bytes a memory (the in-object index)`
        : `${(v(per.emptyObjectBytes) / 1000).toFixed(0)} KB an object`,
      unit: "GB",
      perUser: (v(per.emptyObjectBytes) + (local ? u.memories * v(per.localVectorBytes) : 0)) / 1e9,
      price: "doStorageGb",
    },
  ];
}

/** The account's month: every billed line for `u.users` users, and the first and each further user. */
export function costModel(u: Usage, per: PerOperation = PER_OPERATION): CostReport {
  for (const [name, value] of Object.entries({
    memories: u.memories,
    saves: u.saves,
    recalls: u.recalls,
    users: u.users,
    dimensions: u.dimensions,
  }))
    if (!Number.isFinite(value) || value < 0 || !Number.isInteger(value))
      throw new RangeError(`${name} must be a whole number of at least 0`);
  if (u.users < 1) throw new RangeError("users must be at least 1");
  const qs = quantities(u, per);
  // Workers AI's allowance is shared by every model: the neurons lines are billed together.
  const neuronsOf = (users: number) =>
    qs.filter((q) => q.price === "neurons").reduce((s, q) => s + (q.fixed ?? 0) + users * q.perUser, 0);
  const beyond = (q: Quantity, users: number) => {
    const p: Price = PRICES[q.price];
    if (q.price === "neurons") {
      const all = neuronsOf(users);
      const share = all === 0 ? 0 : ((q.fixed ?? 0) + users * q.perUser) / all;
      return Math.max(0, all - p.paidIncluded) * p.paidPerUnit * share;
    }
    return Math.max(0, (q.fixed ?? 0) + users * q.perUser - p.paidIncluded) * p.paidPerUnit;
  };
  const lines: CostLine[] = qs.map((q) => {
    const p: Price = PRICES[q.price];
    const total = (q.fixed ?? 0) + u.users * q.perUser;
    const freeUse =
      q.price === "neurons"
        ? neuronsOf(u.users) / (p.freePer === "day" ? DAYS_A_MONTH : 1)
        : p.freePer === "day"
          ? total / DAYS_A_MONTH
          : total;
    return {
      resource: q.resource,
      perOperation: q.perOperation,
      unit: q.unit,
      perUser: q.perUser,
      total,
      price: q.price,
      cost: beyond(q, u.users),
      perFurtherUser: q.perUser * p.paidPerUnit,
      freeLimit: p.freeLimit,
      freePer: p.freePer,
      freeUse,
    };
  });
  const subscription = PRICES.subscription.usd;
  const sumCost = (users: number) => qs.reduce((s, q) => s + beyond(q, users), 0);
  const overFree: { resource: string; times: number }[] = [];
  let freeUsersFit = Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  for (const l of lines) {
    if (!Number.isFinite(l.freeLimit)) continue;
    const key = l.price === "neurons" ? "neurons" : l.resource;
    if (seen.has(key)) continue;
    seen.add(key);
    const perUserUse =
      l.price === "neurons" ? lines.filter((x) => x.price === "neurons").reduce((s, x) => s + x.perUser, 0) : l.perUser;
    const fixed = l.price === "neurons" ? 0 : l.total - u.users * l.perUser;
    const perPeriod = (x: number) => (l.freePer === "day" ? x / DAYS_A_MONTH : x);
    if (perUserUse > 0)
      freeUsersFit = Math.min(
        freeUsersFit,
        Math.max(0, Math.floor((l.freeLimit - perPeriod(fixed)) / perPeriod(perUserUse))),
      );
    if (l.freeUse > l.freeLimit)
      overFree.push({
        resource: l.price === "neurons" ? "Workers AI neurons" : l.resource,
        times: l.freeUse / l.freeLimit,
      });
  }
  return {
    usage: u,
    lines,
    subscription,
    total: subscription + sumCost(u.users),
    firstUser: subscription + sumCost(1),
    perFurtherUser: lines.reduce((s, l) => s + l.perFurtherUser, 0),
    overFree,
    freeUsersFit,
  };
}
