/**
 * @module mcp/tools/regenerate-embeddings
 * regenerate_embeddings: re-embed this user's memories with the current model now — index repair and
 * model migration (memory/lifecycle/) through the user's Durable Object, bounded by the run budget —
 * and report how far the vector index is in sync with D1 afterwards.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { regenerateInput } from "../../memory/lifecycle/lifecycle-contracts";
import { addSnapshots } from "../../timing/request-timing";
import { onDemandMaintenance } from "../maintenance-request";
import { defineTool } from "../tool-definition";
import { count } from "../views";

export const regenerateEmbeddingsTool = defineTool({
  name: "regenerate_embeddings",
  title: "Regenerate embeddings",
  description: "Re-embed memories with the current model and repair the index.",
  input: regenerateInput.extend({ ...scopeFields }),
  output: z.object({
    reembedded: count.describe("Memories embedded again in this call"),
    stray_vectors_removed: count.describe("Index entries deleted because their memory is gone or inactive"),
    complete: z.boolean().describe("False when the time or row budget ran out first: call again to continue"),
    index: z
      .object({
        embedding_model: z.string().describe("Current embedding model"),
        unindexed: count.describe("Active memories still not indexed"),
        other_model: count.describe("Active memories still on an older model"),
        in_sync: z.boolean().describe("True when every active memory is indexed with the current model"),
      })
      .describe("Index sync after this call"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const { report, stats } = await withMemory(ctx, args, async (stub, scope) => {
      const r = await stub.maintain(
        scope,
        onDemandMaintenance(ctx, ["repair", "migrate"], { reembed: args.all === true }),
      );
      if (!r.ok) return r;
      const s = await stub.stats(scope);
      const timing = addSnapshots(r.timing, s.timing);
      return s.ok ? { ok: true as const, value: { report: r.value, stats: s.value }, timing } : { ...s, timing };
    });
    const repair = report.jobs.find((j) => j.job === "repair");
    const migrate = report.jobs.find((j) => j.job === "migrate");
    const structured = {
      reembedded: (migrate?.changed ?? 0) + (repair?.changed ?? 0),
      stray_vectors_removed: repair?.removed ?? 0,
      complete: report.complete,
      index: {
        embedding_model: stats.embeddingModel,
        unindexed: stats.activeUnindexed,
        other_model: stats.activeOtherModel,
        in_sync: stats.inSync,
      },
    };
    return {
      structured,
      text: ctx.messages.reembedded(structured.reembedded, stats.inSync, stats.embeddingModel),
    };
  },
});
