/**
 * @module mcp/tools/forget-memories
 * forget_memories: bulk soft delete by filter, with dry_run to preview.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { forgetInput } from "../../memory/contracts";
import { defineTool } from "../tool-definition";
import { count, memoryView, renderList, toView } from "../views";

export const forgetMemoriesTool = defineTool({
  name: "forget_memories",
  title: "Forget memories in bulk",
  description: "Soft-delete every active memory matching a filter; try dry_run first.",
  input: forgetInput.extend({ ...scopeFields }),
  output: z.object({
    matched: count.describe("Memories matching the filter"),
    deleted: z.array(z.string()).describe("Ids deleted (empty on dry_run)"),
    sample: z.array(memoryView).describe("Up to 10 of the matching memories"),
    dry_run: z.boolean().describe("True when nothing was deleted"),
    truncated: z.boolean().describe("True when more matched than one call handles (1000); call again"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    if (!args.dry_run) requireWrite(ctx);
    const r = await withMemory(ctx, args, (stub, scope) => stub.forget(scope, args));
    const sample = r.sample.map((m) => toView(m));
    const m = ctx.messages;
    const head = r.dryRun ? m.forgetPreview(r.matched) : m.deleted(r.deleted.length);
    return {
      structured: { matched: r.matched, deleted: r.deleted, sample, dry_run: r.dryRun, truncated: r.truncated },
      text: [head, renderList(sample, m), r.truncated ? m.forgetTruncated : ""].filter(Boolean).join("\n"),
    };
  },
});
