/**
 * @module mcp/tools/fetch-memory
 * fetch: the second tool of OpenAI's MCP contract for ChatGPT: one id (from search) in,
 * `{id, title, text, url, metadata}` out, the same JSON as the one text item. The memory's whole
 * text with its category, tags, dates and status; only a memory `search` could have listed for the
 * same caller (memory/recall/fetch-listed.ts): active (search has no way to ask for superseded
 * ones), never quarantined, deleted, expired or private to another agent.
 */
import { z } from "zod";
import { withMemory } from "../../access/user-memory-client";
import { memoryId } from "../../memory/contracts";
import { defineTool, READ_ONLY } from "../tool-definition";
import { toView } from "../views";
import { citation } from "./search-memories";

const output = z.object({
  id: z.string().describe("Memory id"),
  title: z.string().describe("Short form of the memory"),
  text: z.string().describe("What is remembered, whole"),
  url: z.string().describe("The memory's dashboard page"),
  // Key/value pairs, as the contract has them: category, status, created_at, updated_at, event_time and
  // expires_at (ISO 8601 or null), tags (a list).
  metadata: z
    .record(z.string(), z.union([z.string(), z.array(z.string()), z.null()]))
    .describe("Category, tags, status and dates"),
});

export const fetchMemoryTool = defineTool({
  name: "fetch",
  title: "Fetch",
  description: "Read one memory found by search (ChatGPT's fetch): text, link, metadata.",
  // The contract's one argument: search lists active memories only, so fetch answers those only.
  input: z.object({ id: memoryId }),
  personOnly: true,
  output,
  annotations: READ_ONLY,
  async run(ctx, args) {
    const memory = await withMemory(ctx, {}, (stub, scope) => stub.fetchListed(scope, args.id, false));
    const v = toView(memory);
    const structured = {
      id: memory.id,
      ...citation(ctx, memory),
      text: memory.content,
      metadata: {
        category: v.category,
        tags: v.tags,
        status: v.status,
        created_at: v.created_at,
        updated_at: v.updated_at,
        event_time: v.event_time,
        expires_at: v.expires_at,
      },
    };
    return { structured, text: JSON.stringify(structured) };
  },
});
