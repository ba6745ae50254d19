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

const dailyUsage = z
  .object({
    day: z.string().describe("UTC day; resets 00:00 UTC"),
    used: counts.describe("D1 rows read/written, Workers AI calls, failures, refusals"),
    free_allowances: counts.describe("Workers Free's daily allowances (the account's); empty off Free"),
    last_limit_at: z.string().nullable(),
  })
  .describe("Usage today");

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
  const { d1_rows_read: readMax, d1_rows_written: writtenMax } = d.free_allowances;
  const u = d.used;
  const reset = `${nextDay(d.day)}T00:00:00Z`;
  return [
    readMax !== undefined && writtenMax !== undefined
      ? m.statsDailyD1Allowance(d.day, u.d1_rows_read, readMax, u.d1_rows_written, writtenMax)
      : m.statsDailyD1(d.day, u.d1_rows_read, u.d1_rows_written),
    u.ai_embeddings + u.ai_generations + u.ai_reranks > 0
      ? m.statsDailyAi(u.ai_embeddings, u.ai_generations, u.ai_reranks)
      : "",
    u.ai_allocation_spent > 0 ? m.statsDailyAllocationMet(u.ai_allocation_spent, d.last_limit_at ?? "-", reset) : "",
    u.ai_rate_limited > 0 ? m.statsRateLimited(u.ai_rate_limited, d.last_limit_at ?? "-") : "",
  ];
}

/** The day after a UTC day (YYYY-MM-DD). */
function nextDay(day: string): string {
  const [y, mo, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y, mo - 1, d + 1)).toISOString().slice(0, 10);
}
