/**
 * @module router/openai-error
 * An error answered in OpenAI's shape (`{"error":{"message","type","param","code"}}`), which every
 * OpenAI client reads; the router's own errors and an upstream's unreadable ones alike.
 */
export type OpenAiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "rate_limit_error"
  | "server_error"
  | "upstream_error";

export function openAiErrorBody(
  message: string,
  type: OpenAiErrorType,
  param: string | null = null,
  code: string | null = null,
) {
  return { error: { message, type, param, code } };
}

export function openAiError(
  status: number,
  message: string,
  type: OpenAiErrorType,
  param: string | null = null,
  code: string | null = null,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(openAiErrorBody(message, type, param, code)), {
    status,
    headers: { ...headers, "content-type": "application/json" },
  });
}

/** The OpenAI error type of a status the router answers with. */
export function errorTypeOf(status: number): OpenAiErrorType {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}
