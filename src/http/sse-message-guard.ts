/**
 * @module http/sse-message-guard
 * Checks a legacy SSE message before the agents SDK handles it. The SDK answers 500 to three client
 * mistakes: a body that is not JSON (it calls request.json() unguarded), JSON nested deep enough to
 * overflow the Durable Object RPC serialiser, and JSON that is not a JSON-RPC message (the zod error
 * it returns cannot cross the RPC boundary). Each gets a 400 with a JSON-RPC error here instead.
 * Found by the reliability run's fuzzer (docs/reliability.md).
 */
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";

/** Deeper than any MCP message needs; well inside what RPC serialisation survives. */
export const MAX_JSON_DEPTH = 64;

/** Deepest nesting of arrays and objects in JSON text, in one linear pass (brackets in strings ignored). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) max = Math.max(max, ++depth);
    else if (ch === 93 || ch === 125) depth--;
  }
  return max;
}

/** JSON-RPC error code and message for a body that must not reach the SDK, or null when it may. */
export function sseMessageProblem(text: string): { code: number; message: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { code: -32700, message: "Parse error: the body must be one JSON-RPC message in JSON" };
  }
  if (jsonDepth(text) > MAX_JSON_DEPTH)
    return { code: -32600, message: `Invalid request: JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (Array.isArray(value))
    return { code: -32600, message: "Invalid request: batches are not supported; send one message" };
  if (!JSONRPCMessageSchema.safeParse(value).success)
    return { code: -32600, message: "Invalid request: not a JSON-RPC 2.0 request, notification or response" };
  return null;
}

/** POST /sse/message: refuses what the SDK would answer with a 500. */
export const guardSseMessage: MiddlewareHandler<AppEnv> = async (c, next) => {
  const problem = sseMessageProblem(await c.req.raw.clone().text());
  if (!problem) return next();
  return c.json({ jsonrpc: "2.0", id: null, error: problem }, 400);
};
