/**
 * @module http/error-response
 * The one exhaustive mapping from MemoryError codes to HTTP statuses and JSON bodies. Never a
 * stack trace on the wire; unknown errors are logged and answered generically.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { consoleLogger } from "../console-logger";
import { MemoryError, type MemoryErrorCode } from "../memory/errors";
import { kvDailyLimitError } from "../platform-limits/kv-daily-limits";

export function statusFor(code: MemoryErrorCode): ContentfulStatusCode {
  switch (code) {
    case "invalid_input":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
      return 404;
    case "conflict":
    case "idempotency_mismatch":
      return 409;
    case "payload_too_large":
    case "limit_exceeded":
      return 413;
    case "quota_exceeded":
      return 429;
    case "provider_unavailable":
      return 503;
    case "internal":
      return 500;
  }
}

export function errorBody(code: MemoryErrorCode, message: string, field?: string) {
  return { error: code, message, ...(field ? { field } : {}) };
}

export function handleError(err: unknown, c: Context): Response {
  // KV's daily-limit refusal (Workers Free's 1,000 writes) is a quota, not a fault: no stack in the log.
  const known = err instanceof MemoryError ? err : kvDailyLimitError(err);
  if (known) return c.json(errorBody(known.code, known.message, known.field), statusFor(known.code));
  consoleLogger.error("unhandled request error", {
    error: String(err),
    stack: (err as Error)?.stack,
    path: c.req.path,
  });
  return c.json(errorBody("internal", "Internal error"), 500);
}
