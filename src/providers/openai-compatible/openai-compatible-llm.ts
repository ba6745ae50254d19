/**
 * @module providers/openai-compatible/openai-compatible-llm
 * The Llm port on any OpenAI-compatible `/chat/completions` endpoint (LLM_PROVIDER=openai-compatible):
 * the request asks for JSON to a schema (`response_format: {type: "json_schema", …}`, temperature 0,
 * a token budget), the answer is read as a chat-completions body and checked with zod
 * (providers/workers-ai-chat.ts reads both providers' answers). The prompts and the fallback to the
 * rules are providers/json-chat-llm.ts: every failure degrades, logged by reason and HTTP status only.
 * A server that keeps failing or answering late is skipped for a while (gate/circuit-breaker.ts):
 * the rules answer at once.
 */
import type { Llm, Logger } from "../../memory/ports";
import { AiTimeoutError } from "../ai-timeout";
import { CircuitBreaker, CircuitOpenError } from "../gate/circuit-breaker";
import { JsonChatLlm } from "../json-chat-llm";
import { type ChatRequest, type ChatResult, jsonChatFields, readChatAnswer } from "../workers-ai-chat";
import { LLM_TIMEOUT_MS } from "../workers-ai-llm";
import { type OpenAiCompatibleEndpoint, OpenAiCompatibleError, postJson } from "./openai-compatible-http";

/** Largest chat answer read: 1 MiB (a JSON answer of 8,192 tokens is ~40 KB). */
export const CHAT_MAX_BYTES = 1024 * 1024;

/** The chat-completions request for one task. */
export function chatCompletionsBody<T>(model: string, req: ChatRequest<T>): Record<string, unknown> {
  return { model, ...jsonChatFields(req) };
}

async function chatCompletions<T>(
  endpoint: OpenAiCompatibleEndpoint,
  model: string,
  req: ChatRequest<T>,
  timeoutMs: number,
): Promise<ChatResult<T>> {
  let body: unknown;
  try {
    body = await postJson(endpoint, "/chat/completions", chatCompletionsBody(model, req), timeoutMs);
  } catch (err) {
    if (err instanceof AiTimeoutError) return { ok: false, reason: "timeout" };
    if (err instanceof CircuitOpenError) return { ok: false, reason: "skipped" };
    const status = err instanceof OpenAiCompatibleError ? err.status : null;
    return { ok: false, reason: "error", code: status === null ? "unreachable" : String(status) };
  }
  return readChatAnswer(body, req.schema);
}

export class OpenAiCompatibleLlm extends JsonChatLlm {
  constructor(
    endpoint: OpenAiCompatibleEndpoint,
    model: string,
    fallback: Llm,
    log: Logger,
    timeoutMs = LLM_TIMEOUT_MS,
  ) {
    const gated = {
      ...endpoint,
      breaker: endpoint.breaker ?? new CircuitBreaker(`language model ${model}`),
      maxBytes: endpoint.maxBytes ?? CHAT_MAX_BYTES,
    };
    super("openai-compatible", model, (req) => chatCompletions(gated, model, req, timeoutMs), fallback, log);
  }
}
