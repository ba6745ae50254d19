/**
 * @module mcp/server-factory
 * Builds the per-request MCP server (SDK v2) for the stateless /mcp endpoint: tools, resources and
 * prompts from the same registration functions the legacy SSE transport uses.
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { z } from "zod";
import { VERSION } from "../version";
import { serverInstructions } from "./messages";
import { type PromptRegistrar, registerPrompts } from "./prompts";
import { type ResourceRegistrar, registerResources } from "./resources";
import type { ToolContext } from "./tool-context";
import { registerTools, type ToolRegistrar } from "./tool-registry";

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: ctx.config.SERVER_NAME, version: VERSION },
    { instructions: serverInstructions(ctx.config.TOOL_PREFIX) },
  );
  registerTools(server as unknown as ToolRegistrar, ctx);
  registerResources(server as unknown as ResourceRegistrar, ctx, (uri, list) => new ResourceTemplate(uri, { list }));
  registerPrompts(server as unknown as PromptRegistrar, ctx, (shape) => z.object(shape));
  return server;
}
