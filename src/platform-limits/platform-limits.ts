/**
 * @module platform-limits/platform-limits
 * What Cloudflare refuses, as numbers the local runtime enforces (PLATFORM_LIMITS, docs/architecture.md
 * "Platform limits"): D1 queries and subrequests per invocation, and per statement the bound parameters,
 * the SQL text's length and the size of one string, BLOB or row, in D1 and in the Durable Object's
 * SQLite. `paid` and `free` are the published figures (D1, Workers and Durable Objects limits pages);
 * a JSON object overrides single numbers of `paid`; `off` enforces nothing (work is still sized by the
 * paid figures, so what runs here is what would run deployed).
 */
import { z } from "zod";
import { DO_SQLITE_MAX_VALUE_BYTES } from "../storage/object/do-sqlite-limits";

export interface PlatformLimits {
  /** "paid", "free", "custom" (a JSON override) or "off". */
  plan: "paid" | "free" | "custom" | "off";
  /** D1 statements one invocation may run ("Queries per Worker invocation"; each statement of a batch counts). */
  d1_queries_per_invocation: number;
  /**
   * Subrequests to Cloudflare services one invocation may make: a D1 call (a batch is one), a Durable
   * Object call (KV, Workers AI and Vectorize calls are such subrequests too). Free: 1,000 to Cloudflare
   * services beside 50 external fetches (Cloudflare changelog 2026-02-11); Paid: 10,000 by default.
   */
  subrequests_per_invocation: number;
  /** "Maximum bound parameters per query", D1 and Durable Object SQLite. */
  bound_parameters_per_statement: number;
  /** "Maximum SQL statement length" in bytes of UTF-8, D1 and Durable Object SQLite. */
  sql_statement_bytes: number;
  /** "Maximum string, BLOB or table row size" in D1, bytes. */
  d1_value_bytes: number;
  /** "Maximum string, BLOB or table row size" in the Durable Object's SQLite, bytes. */
  do_sql_value_bytes: number;
  /**
   * CPU time one invocation may use, ms: a Worker request, a Cron run, and each call into a Durable
   * Object ("Durable Objects are Worker scripts, and have the same per invocation CPU limits as any
   * Workers do"). Not enforced here (workerd enforces no CPU limit): the steps that scale with data
   * are sized by it (`cpuUnits`).
   */
  cpu_ms_per_invocation: number;
  /**
   * Vectors one Vectorize index holds ("Maximum vectors per index", 10,000,000 on every plan:
   * developers.cloudflare.com/vectorize/platform/limits/, read 2026-12-04). Past it, give shards their
   * own index (VECTORIZE_BY_SHARD, docs/shards.md); /health shows each index's share of it.
   */
  vectors_per_index: number;
  /**
   * Vector dimensions Vectorize stores for the account at most (Workers Free: 5,000,000, ~4,880
   * vectors of 1,024 dimensions; Workers Paid: no cap, billed past 10 M): vectorize pricing page, read
   * 2026-12-04. /health shows each index's share of it; 0 means no cap.
   */
  vectorize_stored_dimensions: number;
  /** Bytes one D1 database holds at most (Workers Free 500 MB, Paid 10 GB: D1 limits page); /health shows each shard's share. */
  d1_database_bytes: number;
}

type Numbers = Omit<PlatformLimits, "plan">;

/** Workers Paid: D1 1,000 queries per invocation, 10,000 subrequests per request, 30 s of CPU (the default). */
export const PAID: Numbers = {
  d1_queries_per_invocation: 1000,
  subrequests_per_invocation: 10_000,
  bound_parameters_per_statement: 100,
  sql_statement_bytes: 100_000,
  d1_value_bytes: 2_000_000,
  do_sql_value_bytes: DO_SQLITE_MAX_VALUE_BYTES,
  cpu_ms_per_invocation: 30_000,
  vectors_per_index: 10_000_000,
  vectorize_stored_dimensions: 0,
  d1_database_bytes: 10_000_000_000,
};

/**
 * Workers Free: D1 50 queries per invocation, 1,000 subrequests to Cloudflare services (the 50 of the
 * limits page are external fetches since the 2026-02-11 changelog), 10 ms of CPU, Vectorize 5 M stored
 * dimensions, D1 databases of 500 MB; the per-statement limits are the same.
 */
export const FREE: Numbers = {
  ...PAID,
  d1_queries_per_invocation: 50,
  subrequests_per_invocation: 1000,
  cpu_ms_per_invocation: 10,
  vectorize_stored_dimensions: 5_000_000,
  d1_database_bytes: 500_000_000,
};

/** Workers Paid's CPU limit can be raised to 5 minutes (`limits.cpu_ms` in wrangler.toml). */
const MAX_CPU_MS = 300_000;

const count = (max: number) => z.number().int().min(1).max(max);

const overrides = z
  .object({
    d1_queries_per_invocation: count(PAID.d1_queries_per_invocation),
    subrequests_per_invocation: count(PAID.subrequests_per_invocation),
    bound_parameters_per_statement: count(PAID.bound_parameters_per_statement),
    sql_statement_bytes: count(PAID.sql_statement_bytes),
    d1_value_bytes: count(PAID.d1_value_bytes),
    do_sql_value_bytes: count(PAID.do_sql_value_bytes),
    cpu_ms_per_invocation: count(MAX_CPU_MS),
    vectors_per_index: count(PAID.vectors_per_index),
    vectorize_stored_dimensions: z.number().int().min(0).max(1e12),
    d1_database_bytes: count(PAID.d1_database_bytes),
  })
  .partial()
  .strict();

/**
 * PLATFORM_LIMITS as config.ts parses it: `paid` | `free` | `off` | a JSON object of numbers (each at
 * most paid's, CPU at most the 300,000 ms `limits.cpu_ms` allows).
 */
export const platformLimitsSchema = z.string().transform((text, ctx): PlatformLimits => {
  const word = text.trim();
  if (word === "paid" || word === "off") return { plan: word, ...PAID };
  if (word === "free") return { plan: "free", ...FREE };
  let json: unknown;
  try {
    json = JSON.parse(word);
  } catch {
    ctx.addIssue({ code: "custom", message: 'must be "paid", "free", "off" or a JSON object of limits' });
    return z.NEVER;
  }
  const parsed = overrides.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    ctx.addIssue({ code: "custom", message: `${issue.path.join(".") || "object"}: ${issue.message}` });
    return z.NEVER;
  }
  return { plan: "custom", ...PAID, ...parsed.data };
});

export const DEFAULT_PLATFORM_LIMITS: PlatformLimits = { plan: "paid", ...PAID };

/** True when the local runtime refuses what production would (every plan but `off`). */
export const enforced = (limits: PlatformLimits): boolean => limits.plan !== "off";

/**
 * CPU the steps that scale with data cost, µs per unit, as `npm run bench:cpu -- --limits free` measured
 * them on the local runtime: V8's CPU profile of the Worker's isolate (which also runs its Durable
 * Objects, not the local D1), the cost above an empty request's, median of three rounds, 2026-12-02 on a
 * shared 2-core machine (docs/architecture.md, "CPU time"). Measured locally, not deployed.
 */
export const STEP_CPU_US = {
  /** One memory of an export part (Worker): its row, history and what it names and states, read and written out. 44.5 measured. */
  exportMemory: 45,
  /** One line of an import request: the Worker's parse and validation (15 measured) and the object's write (130). */
  importLine: 146,
  /** One row of a lifecycle call in the object (index repair, with the MCP call around it): 384 measured. */
  lifecycleRow: 385,
  /**
   * One row a shard-move step reads in the object: copied (read, hashed, written out to the target) 12.7
   * measured, 11.6–17.1 over three runs; read back and hashed to verify, 9.6. Above a step that carries
   * nothing (7.7 ms); a delete's rows never pass through the object.
   */
  moveRow: 13,
} as const;

/**
 * Share of an invocation's CPU time the units of a step are sized to fill. The rest is left for the
 * request's own work (auth, routing, the owner's shard: 5–42 ms locally, more than Free's whole 10 ms,
 * so Free is not shown to fit) and for a deployed CPU that differs from this one.
 */
export const CPU_SHARE = 0.5;

/** Units of `step` one invocation may take within `limits`' CPU time: at least 1, so work always moves on. */
export function cpuUnits(limits: PlatformLimits, step: keyof typeof STEP_CPU_US): number {
  return Math.max(1, Math.floor((limits.cpu_ms_per_invocation * 1000 * CPU_SHARE) / STEP_CPU_US[step]));
}
