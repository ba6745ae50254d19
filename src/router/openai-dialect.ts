/**
 * @module router/openai-dialect
 * OpenAI's Chat Completions as a ChatDialect: the request read by router/chat-request.ts, the
 * memories as one system message before the conversation, `user` naming an app key's end user,
 * errors in OpenAI's shape, sent through a ChatUpstream.
 */

import { type ChatDialect, readBy } from "./chat-dialect";
import { chatRequest, messageText } from "./chat-request";
import type { ChatUpstream } from "./chat-upstream";
import { openAiError } from "./openai-error";

export function openAiDialect(upstream: ChatUpstream | null, upstreamVariable: string): ChatDialect {
  return {
    userField: "user",
    upstreamVariable,
    read: (body) =>
      readBy(chatRequest, body, (request) => ({
        body: request,
        messages: request.messages.map((m) => ({ role: m.role, text: messageText(m) })),
        user: request.user,
      })),
    inject: (body, frame) => ({
      ...body,
      messages: [{ role: "system", content: frame }, ...(body.messages as unknown[])],
    }),
    error: openAiError,
    isErrorBody: (body) => body !== null && typeof body === "object" && "error" in body,
    send: upstream ? (body, signal) => upstream.chat(body, signal) : null,
  };
}
