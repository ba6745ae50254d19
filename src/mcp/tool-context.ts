/**
 * @module mcp/tool-context
 * What a tool handler gets: the bindings and the caller (what access/user-memory-client.ts needs
 * to reach the user's Durable Object), plus config and the locale's messages.
 */
import type { MemoryCallContext } from "../access/user-memory-client";
import type { Config } from "../config";
import type { Messages } from "./messages";

export interface ToolContext extends MemoryCallContext {
  config: Config;
  messages: Messages;
}
