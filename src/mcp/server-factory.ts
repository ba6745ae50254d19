/**
 * @module mcp/server-factory
 * Builds the per-request MCP server (SDK v2) for the stateless /mcp endpoint: tools, resources and
 * prompts from the same registration the legacy SSE transport uses (mcp/surface.ts).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { VERSION } from "../version";
import { sdkV2Registrar } from "./sdk-v2-registrar";
import { registerSurface, SERVER_CAPABILITIES } from "./surface";
import type { ToolContext } from "./tool-context";
import { serverInstructions } from "./tool-prefix";

export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: ctx.config.SERVER_NAME, version: VERSION },
    { instructions: serverInstructions(ctx.config.TOOL_PREFIX), capabilities: SERVER_CAPABILITIES },
  );
  registerSurface(sdkV2Registrar(server), ctx);
  return server;
}
