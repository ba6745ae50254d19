/**
 * @module http/error-response
 * The one exhaustive mapping from MemoryError codes to HTTP statuses and JSON bodies. Never a
 * stack trace on the wire; unknown errors are logged and answered generically.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { consoleLogger } from "../console-logger";
import { MemoryError, type MemoryErrorCode } from "../memory/errors";

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
  if (err instanceof MemoryError) return c.json(errorBody(err.code, err.message, err.field), statusFor(err.code));
  consoleLogger.error("unhandled request error", {
    error: String(err),
    stack: (err as Error)?.stack,
    path: c.req.path,
  });
  return c.json(errorBody("internal", "Internal error"), 500);
}
