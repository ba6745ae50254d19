/**
 * @module mcp/tools/list-memories
 * list_memories: browse by status and filters with cursor pagination.
 */
import { z } from "zod";
import { scopeFields } from "../../access/scope";
import { withMemory } from "../../access/user-memory-client";
import { listInput } from "../../memory/contracts";
import { defineTool, READ_ONLY } from "../tool-definition";
import { memoryView, renderList, toView } from "../views";

export const listMemoriesTool = defineTool({
  name: "list_memories",
  title: "List memories",
  description: "Browse memories with filters, newest first; pass next_cursor as cursor to page.",
  input: listInput.extend({ ...scopeFields }),
  output: z.object({
    memories: z.array(memoryView).describe("This page"),
    next_cursor: z.string().nullable().describe("Cursor for the next page, null on the last page"),
  }),
  annotations: READ_ONLY,
  async run(ctx, args) {
    const r = await withMemory(ctx, args, (stub, scope) => stub.list(scope, args));
    const views = r.memories.map((m) => toView(m));
    const m = ctx.messages;
    const text = views.length
      ? renderList(views, m) + (r.nextCursor ? `\n${m.nextCursor(r.nextCursor)}` : "")
      : m.noneListed;
    return { structured: { memories: views, next_cursor: r.nextCursor }, text };
  },
});
