/**
 * @module mcp/tools/consolidate-memories
 * consolidate_memories: run this user's consolidation now — the cron's own job (memory/lifecycle/
 * consolidate-memories.ts) through the user's Durable Object, bounded by the run budget.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { consolidateInput } from "../../memory/lifecycle/lifecycle-contracts";
import { onDemandMaintenance } from "../maintenance-request";
import { defineTool } from "../tool-definition";
import { count } from "../views";

export const consolidateMemoriesTool = defineTool({
  name: "consolidate_memories",
  title: "Consolidate memories",
  description: "Merge near-duplicate memories now; it also runs on a schedule.",
  input: consolidateInput.extend({ ...scopeFields }),
  output: z.object({
    examined: count.describe("Memories compared with their neighbours in this call"),
    merged: count.describe("Memories superseded by the one they duplicate"),
    clusters: z
      .array(
        z.object({
          kept: z.string().describe("Id of the memory that absorbed the others"),
          merged: z.array(z.string()).describe("Ids now superseded by it"),
        }),
      )
      .describe("What was folded into what (up to 50)"),
    complete: z.boolean().describe("False when the time or row budget ran out first: call again to continue"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const report = await withMemory(ctx, args, (stub, scope) =>
      stub.maintain(scope, onDemandMaintenance(ctx, ["repair", "consolidate"], { consolidate: args.all === true })),
    );
    const job = report.jobs.find((j) => j.job === "consolidate");
    const clusters = job?.clusters ?? [];
    const structured = {
      examined: job?.processed ?? 0,
      merged: job?.changed ?? 0,
      clusters: clusters.slice(0, 50),
      complete: report.complete,
    };
    return {
      structured,
      text: ctx.messages.consolidated(structured.merged, clusters.length, structured.complete),
    };
  },
});
