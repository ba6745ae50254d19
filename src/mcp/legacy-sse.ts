/**
 * @module mcp/legacy-sse
 * Legacy SSE transport for older MCP clients. The agents SDK's McpAgent (SDK v1) keeps one Durable
 * Object per SSE session; here it is only a transport: it registers the same tools, resources and
 * prompts as /mcp, and every call goes to the user's UserMemory object. The first caller pins the
 * session (and http/sse-sessions.ts refuses, with 404, a message from another credential or for an id
 * the server did not issue), so a message posted with someone else's credentials cannot act inside it.
 * McpAgent is deprecated (agents 0.20.0) yet, as of agents 0.32.0, the only HTTP+SSE server on Workers;
 * why it stays and what replaces it: docs/architecture.md, "Legacy /sse and the v1 SDK: retirement plan".
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpAgent } from "agents/mcp";
import type { CallerContext } from "../access/principal";
import { loadConfig } from "../config";
import type { Env } from "../env";
import { MemoryError } from "../memory/errors";
import { VERSION } from "../version";
import { sdkV1Registrar } from "./sdk-v1-registrar";
import { registerSurface, SERVER_CAPABILITIES } from "./surface";
import type { ToolContext } from "./tool-context";
import { messages, serverInstructions } from "./tool-prefix";

type SseProps = { caller: CallerContext };

export class LegacySseSession extends McpAgent<Env, unknown, SseProps> {
  server = new McpServer(
    { name: loadConfig(this.env).SERVER_NAME, version: VERSION },
    { instructions: serverInstructions(loadConfig(this.env).TOOL_PREFIX), capabilities: SERVER_CAPABILITIES },
  );

  async init(): Promise<void> {
    const pinned = (await this.ctx.storage.get<CallerContext>("pinned_caller")) ?? this.props?.caller;
    if (!pinned) throw new MemoryError("unauthorized", "SSE session without credentials");
    await this.ctx.storage.put("pinned_caller", pinned);
    const config = loadConfig(this.env);
    const caller: CallerContext = { ...pinned, sessionHeader: pinned.sessionHeader ?? `sse:${this.name}` };
    const ctx: ToolContext = { env: this.env, config, caller, messages: messages(config.LOCALE, config.TOOL_PREFIX) };
    const guard = () => {
      if (this.props?.caller && this.props.caller.principal.credential !== pinned.principal.credential) {
        throw new MemoryError("forbidden", "This SSE session belongs to another credential");
      }
    };
    const guarded: ToolContext = {
      ...ctx,
      get caller() {
        guard();
        return caller;
      },
    };
    registerSurface(sdkV1Registrar(this.server), guarded);
  }
}
