/**
 * @module mcp/tools/memory-stats
 * memory_stats: counts by status, category, priority and type; oldest/newest; index sync; models.
 */
import { z } from "zod";
import { defineTool, READ_ONLY } from "../tool-definition";
import { scopeFields, withMemory } from "../tool-context";

const counts = z.record(z.string(), z.number().int());

export const memoryStatsTool = defineTool({
  name: "memory_stats",
  title: "Memory statistics",
  description: "Summarise what is stored for this user: counts, age range, and whether the search index is in sync.",
  input: z.object({ ...scopeFields }),
  output: z.object({
    total: z.number().int().describe("All stored memories, any status"),
    by_status: counts.describe("Count per status"),
    by_category: counts.describe("Active memories per category"),
    by_priority: counts.describe("Active memories per priority"),
    by_type: counts.describe("Active memories per memory type"),
    oldest: z.string().nullable().describe("Oldest active memory (ISO 8601)"),
    newest: z.string().nullable().describe("Newest active memory (ISO 8601)"),
    index: z.object({
      kind: z.string().describe("vectorize or local"),
      embedding_model: z.string().describe("Current embedding model"),
      indexed: z.number().int().describe("Active memories indexed with the current model"),
      unindexed: z.number().int().describe("Active memories not yet indexed"),
      other_model: z.number().int().describe("Active memories indexed with an older model"),
      fresh_buffered: z.number().int().describe("Vectors awaiting index confirmation"),
      in_sync: z.boolean().describe("True when every active memory is indexed with the current model"),
    }).describe("Vector index sync"),
  }),
  annotations: READ_ONLY,
  async run(ctx, args) {
    const s = await withMemory(ctx, args, (stub, scope) => stub.stats(scope));
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const structured = {
      total: s.total, by_status: s.byStatus, by_category: s.byCategory, by_priority: s.byPriority, by_type: s.byType,
      oldest: iso(s.oldest), newest: iso(s.newest),
      index: { kind: s.vectorIndex, embedding_model: s.embeddingModel, indexed: s.activeIndexed, unindexed: s.activeUnindexed, other_model: s.activeOtherModel, fresh_buffered: s.freshBuffered, in_sync: s.inSync },
    };
    const text = [
      `Memories: ${s.total} (${Object.entries(s.byStatus).map(([k, v]) => `${k} ${v}`).join(", ") || "none"})`,
      `Categories: ${Object.entries(s.byCategory).map(([k, v]) => `${k} ${v}`).join(", ") || "none"}`,
      `Oldest: ${structured.oldest ?? "-"} · newest: ${structured.newest ?? "-"}`,
      `Index: ${s.vectorIndex}, model ${s.embeddingModel}, ${s.inSync ? "in sync" : `${s.activeUnindexed} unindexed, ${s.activeOtherModel} on an older model`}`,
    ].join("\n");
    return { structured, text };
  },
});
