/**
 * @module memory/lifecycle/lifecycle-contracts
 * zod input schemas of the on-demand lifecycle tools (consolidate_memories, regenerate_embeddings):
 * the single source of truth for their MCP schemas and argument types.
 */
import { z } from "zod";

export const consolidateInput = z.object({
  all: z.boolean().optional().describe("All, not only new"),
});
export type ConsolidateInput = z.infer<typeof consolidateInput>;

export const regenerateInput = z.object({
  all: z.boolean().optional().describe("All, not only stale"),
});
export type RegenerateInput = z.infer<typeof regenerateInput>;
