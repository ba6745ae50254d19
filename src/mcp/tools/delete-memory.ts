/**
 * @module mcp/tools/delete-memory
 * delete_memory: soft delete by id or ids; restorable during the retention window.
 */
import { z } from "zod";
import { requireWrite, scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { deleteInput } from "../../memory/contracts";
import { defineTool } from "../tool-definition";

export const deleteMemoryTool = defineTool({
  name: "delete_memory",
  title: "Delete memories",
  description: "Delete by id or ids; restore_memory undoes it unless quarantined.",
  input: deleteInput.extend({ ...scopeFields }),
  output: z.object({
    deleted: z.array(z.string()).describe("Ids now deleted"),
    quarantined: z
      .array(z.string())
      .optional()
      .describe("Of those, ids kept quarantined (not restorable); absent when none"),
    already_deleted: z.array(z.string()).describe("Ids that were deleted before this call"),
    not_found: z.array(z.string()).describe("Ids that do not exist for this user"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(ctx, args) {
    requireWrite(ctx);
    const r = await withMemory(ctx, args, (stub, scope) => stub.delete(scope, args));
    const extra = r.notFound.length
      ? `\n${ctx.messages.notFoundIds(r.notFound.join(", "))} ${ctx.messages.notFoundAdvice}`
      : "";
    return {
      structured: {
        deleted: r.deleted,
        ...(r.quarantined.length > 0 ? { quarantined: r.quarantined } : {}),
        already_deleted: r.alreadyDeleted,
        not_found: r.notFound,
      },
      text: ctx.messages.deleted(r.deleted.length, r.quarantined.length) + extra,
    };
  },
});
