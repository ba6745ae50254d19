/**
 * @module console-logger
 * The Logger port (memory/ports.ts) over console, one JSON object per line so Workers Logs can
 * index the fields. Its own module so HTTP, MCP and the Durable Object can log without importing the
 * composition root (and through it every adapter). Callers pass ids, counts and error text only:
 * memory text never goes to a log.
 */
import type { Logger } from "./memory/ports";

export const consoleLogger: Logger = {
  warn: (message, data) => console.warn(JSON.stringify({ level: "warn", message, ...data })),
  error: (message, data) => console.error(JSON.stringify({ level: "error", message, ...data })),
};
