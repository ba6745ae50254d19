/**
 * @module memory/errors
 * The one typed error of the product. Every expected failure is a MemoryError with a code; the MCP
 * and HTTP layers map codes exhaustively (see mcp/tool-errors.ts and http/error-response.ts).
 */
export type MemoryErrorCode =
  | "invalid_input"
  | "not_found"
  | "unauthorized"
  | "forbidden"
  | "payload_too_large"
  | "conflict"
  /** An idempotency key reused for a different request (memory-service.ts). */
  | "idempotency_mismatch"
  | "quota_exceeded"
  | "provider_unavailable"
  /** A request past one of the platform's limits (PLATFORM_LIMITS, platform-limits/); `field` names the limit. */
  | "limit_exceeded"
  | "internal";

export interface MemoryErrorShape {
  code: MemoryErrorCode;
  message: string;
  field?: string;
}

export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly field?: string;

  constructor(code: MemoryErrorCode, message: string, field?: string) {
    super(message);
    this.name = "MemoryError";
    this.code = code;
    this.field = field;
  }

  toJSON(): MemoryErrorShape {
    return { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }

  static from(shape: MemoryErrorShape): MemoryError {
    return new MemoryError(shape.code, shape.message, shape.field);
  }
}

export function invalidInput(field: string, rule: string): MemoryError {
  return new MemoryError("invalid_input", `${field}: ${rule}`, field);
}

export function notFound(what: string): MemoryError {
  return new MemoryError("not_found", `${what} was not found`);
}
