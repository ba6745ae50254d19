/**
 * @module mcp/tools/memory-stats
 * memory_stats: counts by status, category, priority and type; oldest/newest; index sync; models;
 * today's usage of the plan's daily allowances (platform-limits/daily-usage.ts).
 */
import { z } from "zod";
import { scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { statsInput } from "../../memory/contracts";
import type { MemoryStats } from "../../memory/manage/browse-memories";
import type { DailyUsageView } from "../../platform-limits/daily-usage";
import type { Messages } from "../messages";
import { defineTool, READ_ONLY } from "../tool-definition";
import { count, isoText } from "../views";

const counts = z.record(z.string(), count);

const usageLine = (what: string) =>
  z
    .object({
      used: count.describe(`${what} this memory's queries spent today (UTC), as D1 reports them`),
      allowance: count
        .nullable()
        .describe("The plan's daily allowance for the whole account (Workers Free), null when none"),
      share: z.number().nullable().describe("used / allowance, null without an allowance"),
    })
    .describe(what);

const dailyUsage = z
  .object({
    day: z.string().describe("The UTC day these figures are for (YYYY-MM-DD)"),
    resets_at: isoText.describe("When every daily allowance resets (00:00 UTC)"),
    plan: z.string().describe("PLATFORM_LIMITS: free shows Workers Free's daily allowances; other plans have none"),
    allowance_scope: z
      .literal("account")
      .describe(
        "Allowances are the Cloudflare account's, shared with every user and Worker of it: this memory's figures are its share, not the account's total",
      ),
    d1_rows_read: usageLine("D1 rows read"),
    d1_rows_written: usageLine("D1 rows written"),
    workers_ai: z
      .object({
        embeddings: count.describe("Embedding calls to Workers AI today"),
        generations: count.describe("Text-generation calls to Workers AI today"),
        reranks: count.describe("Reranker calls to Workers AI today"),
        failures: count.describe(
          "Workers AI calls that failed today (degraded: saves indexed later, recall by keywords)",
        ),
        rate_limited: count.describe("Calls Workers AI refused today for its per-minute rate limit"),
        daily_allocation_refused: count.describe(
          "Calls refused today because the account's daily free allocation of neurons was spent",
        ),
        last_limit_at: isoText
          .nullable()
          .describe("When a rate limit or the daily allocation last refused a call today"),
        neurons_allowance: count
          .nullable()
          .describe("Workers Free's 10,000 neurons a day for the account; calls are counted, neurons are not reported"),
      })
      .describe("Workers AI calls of this memory today"),
  })
  .describe("This memory's usage of today (UTC) beside the plan's daily allowances");

export const memoryStatsTool = defineTool({
  name: "memory_stats",
  title: "Memory statistics",
  description: "Memory counts by status, category, priority and type; age range; index sync.",
  input: statsInput.extend({ ...scopeFields }),
  output: z.object({
    total: count.describe("All stored memories, any status"),
    by_status: counts.describe("Count per status"),
    by_category: counts.describe("Active memories per category"),
    by_priority: counts.describe("Active memories per priority"),
    by_type: counts.describe("Active memories per memory type"),
    oldest: isoText.nullable().describe("Oldest active memory (ISO 8601)"),
    newest: isoText.nullable().describe("Newest active memory (ISO 8601)"),
    index: z
      .object({
        kind: z.string().describe("vectorize or local"),
        embedding_model: z.string().describe("Current embedding model"),
        indexed: count.describe("Active memories indexed with the current model"),
        unindexed: count.describe("Active memories not yet indexed"),
        other_model: count.describe("Active memories indexed with an older model"),
        fresh_buffered: count.describe("Vectors awaiting index confirmation"),
        resident_bytes: count
          .nullable()
          .describe(
            "Memory the local index holds for this user in the server (vectors and ids), null for Vectorize or before the first recall loads it",
          ),
        in_sync: z.boolean().describe("True when every active memory is indexed with the current model"),
      })
      .describe("Vector index sync"),
    recall: z
      .object({
        lexical_only: z
          .number()
          .int()
          .describe(
            "Recalls answered from keywords (BM25) alone because the embedding model failed, since the server started",
          ),
        last_lexical_only: z.string().nullable().describe("When that last happened (ISO 8601), null if never"),
      })
      .describe("Whether recall has had to fall back to keyword search"),
    daily_usage: dailyUsage,
  }),
  annotations: READ_ONLY,
  async run(ctx, args) {
    const structured = toStatsView(
      await withMemory(ctx, args, (stub, scope) => stub.stats(scope, { agent: args.agent })),
    );
    return {
      structured,
      text: statsText(structured, args.agent, ctx.messages, ctx.config.LOCAL_INDEX_MAX_VECTORS),
    };
  },
});

/** The tool's structured output; memory://stats serves the same object. */
export function toStatsView(s: MemoryStats & { daily: DailyUsageView }) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    total: s.total,
    by_status: s.byStatus,
    by_category: s.byCategory,
    by_priority: s.byPriority,
    by_type: s.byType,
    oldest: iso(s.oldest),
    newest: iso(s.newest),
    index: {
      kind: s.vectorIndex,
      embedding_model: s.embeddingModel,
      indexed: s.activeIndexed,
      unindexed: s.activeUnindexed,
      other_model: s.activeOtherModel,
      fresh_buffered: s.freshBuffered,
      resident_bytes: s.indexResidentBytes,
      in_sync: s.inSync,
    },
    recall: { lexical_only: s.recall.lexicalOnly, last_lexical_only: iso(s.recall.lastLexicalOnlyAt) },
    daily_usage: s.daily,
  };
}
type StatsView = ReturnType<typeof toStatsView>;

/**
 * The sentence form; with the local index capped (LOCAL_INDEX_MAX_VECTORS, the free profile), how many
 * of its vectors this user holds: the headroom before new memories are found by keyword only.
 */
export function statsText(s: StatsView, agent: string | undefined, m: Messages, localIndexMax = 0): string {
  const parts = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || m.none;
  const i = s.index;
  return [
    agent ? m.statsAgent(agent) : "",
    m.statsTotal(s.total, parts(s.by_status)),
    m.statsCategories(parts(s.by_category)),
    m.statsSpan(s.oldest ?? "-", s.newest ?? "-"),
    i.in_sync
      ? m.statsIndex(i.kind, i.embedding_model)
      : m.statsIndexBehind(i.kind, i.embedding_model, i.unindexed, i.other_model),
    i.kind === "local" && localIndexMax > 0 ? m.statsIndexRoom(i.indexed, localIndexMax) : "",
    s.recall.lexical_only > 0 ? m.statsLexicalOnly(s.recall.lexical_only, s.recall.last_lexical_only ?? "-") : "",
    ...dailyUsageText(s.daily_usage, m),
  ]
    .filter(Boolean)
    .join("\n");
}

/** Today's usage: D1 rows (beside Free's allowance when set), Workers AI calls, and any limit met today. */
export function dailyUsageText(d: StatsView["daily_usage"], m: Messages): string[] {
  const ai = d.workers_ai;
  const read = d.d1_rows_read;
  const written = d.d1_rows_written;
  return [
    read.allowance !== null && written.allowance !== null
      ? m.statsDailyD1Allowance(d.day, read.used, read.allowance, written.used, written.allowance)
      : m.statsDailyD1(d.day, read.used, written.used),
    ai.embeddings + ai.generations + ai.reranks > 0 ? m.statsDailyAi(ai.embeddings, ai.generations, ai.reranks) : "",
    ai.daily_allocation_refused > 0
      ? m.statsDailyAllocationMet(ai.daily_allocation_refused, ai.last_limit_at ?? "-", d.resets_at)
      : "",
    ai.rate_limited > 0 ? m.statsRateLimited(ai.rate_limited, ai.last_limit_at ?? "-") : "",
  ];
}
