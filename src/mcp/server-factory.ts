/**
 * @module mcp/server-factory
 * Builds the per-request MCP server (SDK v2) for the stateless /mcp endpoint.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { VERSION } from "../version";
import type { ToolContext } from "./tool-context";
import { registerTools, type ToolRegistrar } from "./tool-registry";

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: ctx.config.SERVER_NAME, version: VERSION },
    { instructions: "Long-term memory for this user. Recall at the start of a conversation; save lasting facts, preferences and plans the user states." },
  );
  registerTools(server as unknown as ToolRegistrar, ctx);
  return server;
}
