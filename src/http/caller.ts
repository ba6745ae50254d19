/**
 * @module http/caller
 * The caller of an authenticated request: the principal auth set, plus the agent and session headers.
 */
import type { Context } from "hono";
import type { CallerContext } from "../access/principal";
import type { AppEnv } from "./app-env";

export function callerOf(c: Context<AppEnv>): CallerContext {
  return {
    principal: c.get("principal")!,
    agentHeader: c.req.header("x-agent-id") ?? null,
    sessionHeader: c.req.header("mcp-session-id") ?? null,
    origin: new URL(c.req.url).origin,
  };
}
