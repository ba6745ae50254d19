/**
 * @module mcp/surface
 * Everything an MCP endpoint serves (tools, resources, the memory-context prompt), registered on one
 * McpRegistrar: both transports call this, so /mcp and /sse cannot drift apart.
 */
import { registerPrompts } from "./prompts";
import type { McpRegistrar } from "./registrar";
import { registerResources } from "./resources";
import type { ToolContext } from "./tool-context";
import { registerTools } from "./tool-registry";

export function registerSurface(registrar: McpRegistrar, ctx: ToolContext): void {
  registerTools(registrar, ctx);
  registerResources(registrar, ctx);
  registerPrompts(registrar, ctx);
}
