/**
 * @module http/mcp-routes
 * The two MCP transports behind auth: POST /mcp (stateless Streamable HTTP, SDK v2, a fresh server
 * per request) and the legacy SSE endpoint /sse + /sse/message (served by LegacySseSession).
 */

import { createMcpHandler } from "agents/mcp/server";
import type { Context } from "hono";
import { loadConfig } from "../config";
import { LegacySseSession } from "../mcp/legacy-sse";
import { messages } from "../mcp/messages";
import { buildMcpServer } from "../mcp/server-factory";
import type { AppEnv } from "./app-env";
import { callerOf } from "./caller";
import { bindSseSession } from "./sse-sessions";

export function serveMcp(c: Context<AppEnv>): Promise<Response> {
  const config = loadConfig(c.env);
  const ctx = { env: c.env, config, caller: callerOf(c), messages: messages(config.LOCALE, config.TOOL_PREFIX) };
  const handler = createMcpHandler(() => buildMcpServer(ctx), {
    route: "/mcp",
    allowedOriginHostnames: "*",
    // CORS is ours (http/mcp-cors.ts, CORS_ORIGINS): the library's own headers would allow any origin.
    corsOptions: false,
  });
  return handler(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

const sseHandler = LegacySseSession.serveSSE("/sse", { binding: "SSE_SESSION" });

export async function serveSse(c: Context<AppEnv>): Promise<Response> {
  const bound = await bindSseSession(c);
  if (bound instanceof Response) return bound;
  const execution = c.executionCtx as ExecutionContext & { props?: unknown };
  execution.props = { caller: callerOf(c) };
  return sseHandler.fetch(bound, c.env, execution);
}
