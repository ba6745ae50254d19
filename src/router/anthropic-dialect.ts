/**
 * @module router/anthropic-dialect
 * Anthropic's Messages API (`POST /v1/messages`, for Claude-compatible clients and tools that take
 * ANTHROPIC_BASE_URL) as a ChatDialect: the request read with zod (model, messages, system, stream,
 * metadata.user_id; every other field — tools, images, thinking, max_tokens — kept), the memories as
 * a text block in front of `system`, `metadata.user_id` naming an app key's end user, errors in
 * Anthropic's shape (`{"type":"error","error":{"type","message"}}`), sent to ROUTER_ANTHROPIC_BASE_URL
 * with the operator's key and the client's `anthropic-version` / `anthropic-beta` headers.
 */
import { z } from "zod";
import { endpointUrl } from "../providers/openai-compatible/openai-compatible-http";
import { type ChatDialect, readBy } from "./chat-dialect";
import type { OpenAiErrorType } from "./openai-error";

const block = z.looseObject({ type: z.string() });
const anthropicRequest = z.looseObject({
  model: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters"),
  messages: z
    .array(
      z.looseObject({
        role: z.string().min(1, "must not be empty").max(32, "must be at most 32 characters"),
        content: z.union([z.string(), z.array(block)]),
      }),
    )
    .min(1, "must not be empty")
    .max(10_000, "at most 10000 messages"),
  system: z.union([z.string(), z.array(block)]).optional(),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).optional() }).optional(),
});

/** Text blocks only: images, tool calls and tool results are not text a person said. */
function textOf(content: string | { type: string; text?: unknown }[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n\n");
}

/** Anthropic's error types for the statuses the router answers with. */
function anthropicType(status: number, type: OpenAiErrorType): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status === 400 || type === "invalid_request_error") return "invalid_request_error";
  return "api_error";
}

export function anthropicError(
  status: number,
  message: string,
  type: OpenAiErrorType,
  _param?: string | null,
  _code?: string | null,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ type: "error", error: { type: anthropicType(status, type), message } }), {
    status,
    headers: { ...headers, "content-type": "application/json" },
  });
}

/** The client headers that travel upstream with an Anthropic request (the API version and betas it asks for). */
const FORWARDED = ["anthropic-version", "anthropic-beta"];
const DEFAULT_VERSION = "2023-06-01";

export interface AnthropicUpstream {
  baseUrl: string;
  apiKey: string | undefined;
  fetcher?: typeof fetch;
}

export function anthropicDialect(upstream: AnthropicUpstream | null, clientHeaders: Headers): ChatDialect {
  const send = upstream
    ? (body: Record<string, unknown>, signal: AbortSignal) => {
        const headers = new Headers({
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        });
        for (const name of FORWARDED) {
          const value = clientHeaders.get(name);
          if (value !== null) headers.set(name, value);
        }
        if (!headers.has("anthropic-version")) headers.set("anthropic-version", DEFAULT_VERSION);
        if (upstream.apiKey) headers.set("x-api-key", upstream.apiKey);
        const fetcher = upstream.fetcher ?? ((input, init) => fetch(input, init));
        return fetcher(endpointUrl(upstream.baseUrl, "/messages"), {
          method: "POST",
          headers,
          body: JSON.stringify(body),
          signal,
        });
      }
    : null;
  return {
    userField: "metadata.user_id",
    upstreamVariable: "ROUTER_ANTHROPIC_BASE_URL",
    read: (body) =>
      readBy(anthropicRequest, body, (request) => ({
        body: request,
        messages: request.messages.map((m) => ({ role: m.role, text: textOf(m.content) })),
        user: request.metadata?.user_id,
      })),
    inject(body, frame) {
      const system = body.system as string | { type: string }[] | undefined;
      const own = system === undefined ? [] : typeof system === "string" ? [{ type: "text", text: system }] : system;
      return { ...body, system: [{ type: "text", text: frame }, ...own] };
    },
    error: anthropicError,
    isErrorBody: (body) =>
      body !== null && typeof body === "object" && "type" in body && (body as { type: unknown }).type === "error",
    send,
  };
}
