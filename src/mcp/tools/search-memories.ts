/**
 * @module mcp/tools/search-memories
 * search: the tool ChatGPT's connectors and deep research call (OpenAI's MCP contract): one query
 * string in, `{results: [{id, title, url}]}` out, the same JSON as the one text item. The same
 * recall pipeline as recall_memory with a limit (owner, abstention; the agent from X-Agent-Id, as
 * the contract has no field for it); each url is the memory's dashboard page, so ChatGPT can cite it.
 * Listed to people's credentials only: the contract has no user_id for an app key to name.
 */
import { z } from "zod";
import { memoryUrl } from "../../access/memory-links";
import { withMemory } from "../../access/user-memory-client";
import { recallInput } from "../../memory/contracts";
import { titleExcerpt } from "../../memory/text/excerpt";
import type { Memory } from "../../memory/types";
import type { ToolContext } from "../tool-context";
import { defineTool, READ_ONLY } from "../tool-definition";

/** How long a result's title may be, in estimated tokens. */
export const TITLE_TOKENS = 16;
/** Results per search: enough for a researcher to pick from, as recall_memory's limit allows. */
export const SEARCH_RESULTS = 10;

const output = z.object({
  results: z
    .array(
      z.object({
        id: z.string().describe("Memory id, for fetch"),
        title: z.string().describe("Short form of the memory"),
        url: z.string().describe("The memory's dashboard page"),
      }),
    )
    .describe("Matching memories, best first"),
});

/** The title and link ChatGPT shows for a memory (what search and fetch both return). */
export function citation(ctx: ToolContext, memory: Memory): { title: string; url: string } {
  return {
    title: titleExcerpt(memory.summary ?? memory.content, TITLE_TOKENS),
    url: memoryUrl(memory.id, ctx.config.PUBLIC_URL, ctx.caller.origin),
  };
}

export const searchMemoriesTool = defineTool({
  name: "search",
  title: "Search",
  description: "Find memories (ChatGPT's search): ids, titles and links.",
  input: z.object({ query: recallInput.shape.query }),
  personOnly: true,
  output,
  annotations: READ_ONLY,
  async run(ctx, args) {
    const input = { query: args.query, limit: SEARCH_RESULTS };
    const r = await withMemory(ctx, {}, (stub, scope) => stub.recall(scope, input));
    const results = r.results.map(({ memory, update }) => {
      const cited = citation(ctx, memory);
      if (!update) return { id: memory.id, ...cited };
      // The older fact the query matched, in the title ChatGPT shows: "… (updated 3 Nov; was: …)".
      const was = titleExcerpt(update.replacedContent, TITLE_TOKENS);
      const title = `${cited.title} (${ctx.messages.lineUpdated(ctx.messages.shortDay(update.replacedAt), was)})`;
      return { id: memory.id, ...cited, title };
    });
    const structured = { results };
    return { structured, text: JSON.stringify(structured) };
  },
});
