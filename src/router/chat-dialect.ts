/**
 * @module router/chat-dialect
 * What differs between the chat APIs the router speaks (OpenAI's Chat Completions, Anthropic's
 * Messages): how a request is read (zod, every unread field kept), where the memories go (OpenAI: a
 * system message in front; Anthropic: a text block in front of `system`), which field names an app
 * key's end user, the shape of an error, and where the request is sent. router/route-chat.ts runs
 * the turn the same way for both.
 */
import type { z } from "zod";
import type { OpenAiErrorType } from "./openai-error";

/** A request as the router reads it: the body to send on, its messages' roles and text, its end user. */
export interface ReadRequest {
  body: Record<string, unknown>;
  /** Every message as role and text (text parts only), oldest first. */
  messages: { role: string; text: string }[];
  /** The end user an app key names (OpenAI `user`, Anthropic `metadata.user_id`); absent when none. */
  user?: string;
}

/** What `read` answers: the request as the router reads it, or the first field that broke its schema. */
export type ReadResult = { ok: true; request: ReadRequest } | { ok: false; param: string; message: string };

/** Reads a body by a dialect's zod schema: its first issue names the field and the rule, else `toRequest` maps it. */
export function readBy<S extends z.ZodType>(
  schema: S,
  body: unknown,
  toRequest: (parsed: z.infer<S>) => ReadRequest,
): ReadResult {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, request: toRequest(parsed.data) };
  const issue = parsed.error.issues[0];
  return { ok: false, param: issue.path.join("."), message: issue.message };
}

export interface ChatDialect {
  /** The field that names an app key's end user, as errors name it. */
  userField: string;
  /** The var an operator sets to give this dialect an upstream (named in the 503). */
  upstreamVariable: string;
  read(body: unknown): ReadResult;
  /** The body to send upstream: the request with the memory frame in front of the conversation. */
  inject(body: Record<string, unknown>, frame: string): Record<string, unknown>;
  /** An error in this API's shape. */
  error(
    status: number,
    message: string,
    type: OpenAiErrorType,
    param?: string | null,
    code?: string | null,
    headers?: Record<string, string>,
  ): Response;
  /** True when an upstream's error body is already in this API's shape (it is then passed on as it is). */
  isErrorBody(body: unknown): boolean;
  /** Sends the body upstream; null when no upstream is configured. */
  send: ((body: Record<string, unknown>, signal: AbortSignal) => Promise<Response>) | null;
}
