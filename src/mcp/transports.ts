/**
 * @module mcp/transports
 * The MCP layer's one entry for HTTP (the import rules let http/ use nothing else in mcp/): the two
 * transports for an authenticated caller. /mcp is stateless Streamable HTTP (SDK v2, a fresh server
 * per request): a 2025-era POST that accepts JSON is answered in one JSON body (mcp/json-answer.ts),
 * the rest by agents' handler; /sse + /sse/message is the legacy SSE endpoint served by
 * LegacySseSession (SDK v1).
 */
import { createMcpHandler } from "agents/mcp/server";
import type { CallerContext } from "../access/principal";
import type { Config } from "../config";
import type { Env } from "../env";
import { serveJsonOrFallback } from "./json-answer";
import { LegacySseSession } from "./legacy-sse";
import { buildMcpServer } from "./server-factory";
import type { ToolContext } from "./tool-context";
import { messages } from "./tool-prefix";

export function serveStreamableHttp(
  request: Request,
  env: Env,
  config: Config,
  execution: ExecutionContext,
  caller: CallerContext,
): Promise<Response> {
  const ctx: ToolContext = { env, config, caller, messages: messages(config.LOCALE, config.TOOL_PREFIX) };
  const build = () => buildMcpServer(ctx);
  return serveJsonOrFallback(request, build, (rest) => {
    const handler = createMcpHandler(build, {
      route: "/mcp",
      allowedOriginHostnames: "*",
      // CORS is ours (http/mcp-cors.ts, CORS_ORIGINS): the library's own headers would allow any origin.
      corsOptions: false,
    });
    return handler(rest, env, execution);
  });
}

const sseHandler = LegacySseSession.serveSSE("/sse", { binding: "SSE_SESSION" });

/** The caller travels to the session's Durable Object as props (agents' McpAgent reads ctx.props). */
export function serveLegacySse(
  request: Request,
  env: Env,
  execution: ExecutionContext,
  caller: CallerContext,
): Promise<Response> {
  const withProps: ExecutionContext & { props?: unknown } = execution;
  withProps.props = { caller };
  return sseHandler.fetch(request, env, withProps);
}
