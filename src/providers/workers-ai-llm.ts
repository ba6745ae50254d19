/**
 * @module providers/workers-ai-llm
 * Llm port on a Workers AI chat model in JSON mode (providers/workers-ai-chat.ts); the prompts, the
 * handles and the fallback to the rules are providers/json-chat-llm.ts. One circuit breaker per
 * adapter (so per Durable Object) skips a model that keeps failing (gate/circuit-breaker.ts).
 */
import type { Llm, Logger } from "../memory/ports";
import { CircuitBreaker } from "./gate/circuit-breaker";
import { JsonChatLlm } from "./json-chat-llm";
import { chatJson } from "./workers-ai-chat";
import type { AiChatBinding, LlmModel } from "./workers-ai-models";

/** Longest wait for one answer before the rules take over (a save waits on it). */
export const LLM_TIMEOUT_MS = 20_000;

export class WorkersAiLlm extends JsonChatLlm {
  constructor(ai: AiChatBinding, model: LlmModel, fallback: Llm, log: Logger, timeoutMs = LLM_TIMEOUT_MS) {
    const breaker = new CircuitBreaker(`language model ${model}`);
    super("workers-ai", model, (req) => chatJson(ai, model, req, timeoutMs, breaker), fallback, log);
  }
}
