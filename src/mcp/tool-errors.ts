/**
 * @module mcp/tool-errors
 * The one exhaustive mapping from MemoryError codes to MCP tool results. Expected failures become
 * `isError: true` with an actionable sentence; unknown errors become generic text (details only in
 * logs). Input validation failures are tool errors too, naming the field and the rule, as MCP's
 * 2025-11 revision recommends so the model can correct its call.
 */
import { consoleLogger } from "../console-logger";
import { MemoryError, type MemoryErrorCode } from "../memory/errors";
import type { Messages } from "./messages";

export interface ToolErrorResult {
  [key: string]: unknown;
  isError: true;
  content: { type: "text"; text: string }[];
}

function advice(code: MemoryErrorCode, m: Messages): string {
  switch (code) {
    case "invalid_input":
      return m.invalidAdvice;
    case "not_found":
      return m.notFoundAdvice;
    case "unauthorized":
      return m.unauthorizedAdvice;
    case "forbidden":
      return m.forbiddenAdvice;
    case "payload_too_large":
      return m.tooLargeAdvice;
    case "conflict":
      return m.conflictAdvice;
    case "idempotency_mismatch":
      return m.idempotencyAdvice;
    case "quota_exceeded":
      return m.quotaAdvice;
    case "provider_unavailable":
      return m.providerAdvice;
    case "limit_exceeded":
      return m.limitAdvice;
    case "internal":
      return m.internal;
  }
}

/** What a failed call says: the error's own sentence plus localized advice (generic text for unknown errors). */
export function errorText(err: unknown, m: Messages): string {
  if (err instanceof MemoryError)
    return err.code === "internal" ? m.internal : `${err.message}. ${advice(err.code, m)}`;
  consoleLogger.error("unexpected MCP error", { error: String(err), stack: (err as Error)?.stack });
  return m.internal;
}

/**
 * JSON-RPC error codes for resources and prompts, which have no isError result: MCP's -32002 for a
 * missing resource (SDK v2 rewrites it to -32602 for clients on the 2026 protocol revision).
 */
const PROTOCOL_CODES: Partial<Record<MemoryErrorCode, number>> = { not_found: -32002, invalid_input: -32602 };

/**
 * For resource reads and prompt gets: an Error carrying a JSON-RPC `code`, which both SDK
 * generations put on the wire as { code, message }.
 */
export function protocolError(err: unknown, m: Messages): Error & { code: number } {
  const code = err instanceof MemoryError ? (PROTOCOL_CODES[err.code] ?? -32603) : -32603;
  return Object.assign(new Error(errorText(err, m)), { code });
}

export function toolError(err: unknown, m: Messages): ToolErrorResult {
  if (err instanceof MemoryError) {
    const text = err.code === "internal" ? m.internal : `${err.message}. ${advice(err.code, m)}`;
    return { isError: true, content: [{ type: "text", text }] };
  }
  consoleLogger.error("unexpected tool error", { error: String(err), stack: (err as Error)?.stack });
  return { isError: true, content: [{ type: "text", text: m.internal }] };
}
