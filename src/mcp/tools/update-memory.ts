/**
 * @module mcp/tools/update-memory
 * update_memory: change fields of one memory; content changes are re-screened and re-embedded.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { updateInput } from "../../memory/contracts";
import { awaitsIndex } from "../../memory/indexing";
import { defineTool } from "../tool-definition";
import { indexedLaterView, memoryView, redactedView, renderLine, toView } from "../views";

export const updateMemoryTool = defineTool({
  name: "update_memory",
  title: "Update a memory",
  description: "Correct one memory by id; only given fields change; memory_history keeps the old version.",
  input: updateInput.extend({ ...scopeFields }),
  output: z.object({
    memory: memoryView.describe("The memory after the update"),
    redacted: redactedView.describe("Secrets removed from the new content"),
    indexed_later: indexedLaterView,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const r = await withMemory(ctx, args, (stub, scope) => stub.update(scope, args));
    const view = toView(r.memory);
    const later = awaitsIndex(r.memory);
    const m = ctx.messages;
    return {
      structured: { memory: view, redacted: r.redactions, indexed_later: later },
      text: [m.updated, later ? m.indexedLater : "", renderLine(view, m)].filter(Boolean).join("\n"),
    };
  },
});
