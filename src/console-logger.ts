/**
 * @module console-logger
 * The Logger port (memory/ports.ts) over console, one JSON object per line so Workers Logs can
 * index the fields. Its own module so HTTP, MCP and the Durable Object can log without importing the
 * composition root (and through it every adapter). Callers pass ids, counts and error text only:
 * memory text never goes to a log.
 */
import type { Logger } from "./memory/ports";
import { safeErrorText, safeStack } from "./memory/safe-error-text";

/**
 * `error` and `stack` fields are cut to what memory/safe-error-text.ts allows, whatever the caller
 * passed (a D1 error's message quotes its bound parameters, i.e. memory text).
 */
function safe(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!data) return {};
  const out: Record<string, unknown> = { ...data };
  if ("error" in out) out.error = safeErrorText(out.error);
  if ("stack" in out) out.stack = safeStack(out.stack);
  return out;
}

export const consoleLogger: Logger = {
  warn: (message, data) => console.warn(JSON.stringify({ level: "warn", message, ...safe(data) })),
  error: (message, data) => console.error(JSON.stringify({ level: "error", message, ...safe(data) })),
};
