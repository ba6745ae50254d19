/**
 * @module mcp/tools/restore-memory
 * restore_memory: bring back a deleted, superseded or expired memory. Not a quarantined one: an
 * injected agent could call this tool, so releasing quarantine is a person's act in the dashboard.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { restoreInput } from "../../memory/contracts";
import { awaitsIndex } from "../../memory/indexing";
import { defineTool } from "../tool-definition";
import { indexedLaterView, memoryView, renderLine, toView } from "../views";

export const restoreMemoryTool = defineTool({
  name: "restore_memory",
  title: "Restore a memory",
  description:
    "Undo a delete, a supersede or an expiry: the memory is active and recallable again. Quarantined memories can only be released by the person, in the dashboard.",
  input: restoreInput.extend({ ...scopeFields }),
  output: z.object({ memory: memoryView.describe("The restored memory"), indexed_later: indexedLaterView }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const memory = await withMemory(ctx, args, (stub, scope) => stub.restore(scope, args.id));
    const view = toView(memory);
    const later = awaitsIndex(memory);
    const m = ctx.messages;
    return {
      structured: { memory: view, indexed_later: later },
      text: [m.restored, later ? m.indexedLater : "", renderLine(view, m)].filter(Boolean).join("\n"),
    };
  },
});
