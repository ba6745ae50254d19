/**
 * @module mcp/tool-registry
 * The one tool registry both transports serve (the list itself is mcp/tool-list.ts). `registerTools` works through mcp/registrar.ts on the
 * v2 McpServer (/mcp) and the v1 McpServer inside the legacy SSE agent (/sse): same names, schemas,
 * annotations and handlers, so both endpoints expose identical tools.
 */

import { listedAnnotations, listedSchema } from "./listed-schema";
import type { McpRegistrar } from "./registrar";
import type { ToolContext } from "./tool-context";
import { toolError } from "./tool-errors";
import { TOOLS } from "./tool-list";
import { withToolPrefix } from "./tool-prefix";

/**
 * A user key acts as its own user and may not pass `user_id`, so its tools/list leaves the field out
 * (the SDK lists per request: the server is built per caller). Sending it anyway still gets the
 * clear refusal of mcp/tool-context.ts.
 */
function hiddenFields(ctx: ToolContext): string[] {
  return ctx.caller.principal.scope === "user" ? ["user_id"] : [];
}

export function registerTools(server: McpRegistrar, ctx: ToolContext): void {
  const hidden = hiddenFields(ctx);
  const person = ctx.caller.principal.scope === "user";
  for (const tool of TOOLS) {
    if (tool.personOnly && !person) continue;
    server.tool({
      name: `${ctx.config.TOOL_PREFIX}${tool.name}`,
      title: tool.title,
      description: withToolPrefix(tool.description, ctx.config.TOOL_PREFIX),
      inputSchema: listedSchema(tool.input, "input", hidden),
      outputSchema: listedSchema(tool.output, "output"),
      annotations: listedAnnotations(tool.annotations),
      async call(args) {
        try {
          const out = await tool.run(ctx, args);
          return { content: [{ type: "text", text: out.text }], structuredContent: out.structured };
        } catch (err) {
          return toolError(err, ctx.messages);
        }
      },
    });
  }
}
