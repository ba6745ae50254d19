/**
 * @module http/mcp-routes
 * The two MCP transports behind auth (POST /mcp and the legacy /sse + /sse/message): the caller from
 * auth goes to mcp/transports.ts, which serves the protocol.
 */
import type { Context } from "hono";
import { serveLegacySse, serveStreamableHttp } from "../mcp/transports";
import type { AppEnv } from "./app-env";
import { callerOf } from "./caller";
import { bindSseSession } from "./sse-sessions";

export function serveMcp(c: Context<AppEnv>): Promise<Response> {
  return serveStreamableHttp(c.req.raw, c.env, c.var.config, c.executionCtx as ExecutionContext, callerOf(c));
}

export async function serveSse(c: Context<AppEnv>): Promise<Response> {
  const bound = await bindSseSession(c);
  if (bound instanceof Response) return bound;
  return serveLegacySse(bound, c.env, c.executionCtx as ExecutionContext, callerOf(c));
}
