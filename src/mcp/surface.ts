/**
 * @module mcp/surface
 * Everything an MCP endpoint serves (tools, resources, the memory-context prompt, completions of
 * its arguments), registered on one McpRegistrar, and the capabilities declared beside what
 * registration declares: both transports call this, so /mcp and /sse cannot drift apart.
 */
import { registerEntityResources } from "./entity-resources";
import { registerPrompts } from "./prompts";
import type { McpRegistrar } from "./registrar";
import { registerResources } from "./resources";
import type { ToolContext } from "./tool-context";
import { registerTools } from "./tool-registry";

/**
 * Declared up front on both SDK generations. `logging`: the SDK answers logging/setLevel and keeps
 * the level; the server sends no log notifications (request logs go to the Worker's own log, never
 * to a client), so any level is honoured. (`completions` is declared by registration itself.)
 */
export const SERVER_CAPABILITIES = { logging: {} };

export function registerSurface(registrar: McpRegistrar, ctx: ToolContext): void {
  registerTools(registrar, ctx);
  registerResources(registrar, ctx);
  registerEntityResources(registrar, ctx);
  registerPrompts(registrar, ctx);
}
