/**
 * @module router/workers-ai-upstream
 * The memory router's upstream on Workers AI through the `AI` binding (ROUTER_UPSTREAM=workers-ai),
 * its answers shaped as OpenAI's: `GET /models` lists the chat models this deployment supports
 * (providers/workers-ai-models.ts), `POST /chat/completions` runs the named one and answers its
 * ChatCompletionsOutput (already OpenAI's shape) as JSON, or, for `stream: true`, as one
 * `chat.completion.chunk` event and `[DONE]` (the whole answer in one chunk: the binding's own
 * stream format differs per model). A model it does not support is a 404 in OpenAI's shape, an
 * error the binding throws a 502 with no text of it (it may echo the request).
 */
import { type AiChatBinding, isLlmModel, LLM_MODELS, type LlmModel } from "../providers/workers-ai-models";
import type { ChatUpstream } from "./chat-upstream";
import { openAiError } from "./openai-error";

type ChatInput = AiModels[LlmModel]["inputs"];
type ChatOutput = AiModels[LlmModel]["postProcessedOutputs"];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The whole answer as one OpenAI stream: a chunk whose delta is the message, then [DONE]. */
function asEventStream(out: ChatOutput): Response {
  const chunk = {
    id: out.id,
    object: "chat.completion.chunk",
    created: out.created,
    model: out.model,
    choices: out.choices.map((c) => ({
      index: c.index,
      delta: { role: "assistant", content: c.message.content, tool_calls: c.message.tool_calls },
      finish_reason: c.finish_reason,
    })),
  };
  const text = `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
  return new Response(text, { headers: { "content-type": "text/event-stream" } });
}

export class WorkersAiUpstream implements ChatUpstream {
  constructor(private readonly ai: AiChatBinding) {}

  async chat(body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    const model = String(body.model);
    if (!isLlmModel(model))
      return openAiError(
        404,
        `The model ${JSON.stringify(model.slice(0, 256))} does not exist on this router: GET /v1/models lists them`,
        "not_found_error",
        "model",
        "model_not_found",
      );
    const { model: _model, stream, stream_options: _options, user: _user, ...inputs } = body;
    let out: ChatOutput;
    // The router's bound holds even if the binding ignored the signal: the wait ends when it aborts.
    const aborted = new Promise<never>((_resolve, reject) => {
      if (signal.aborted) reject(new Error("aborted"));
      signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
    });
    aborted.catch(() => undefined); // an abort after the answer came is no one's error
    try {
      out = await Promise.race([this.ai.run(model, { ...inputs, stream: false } as ChatInput, { signal }), aborted]);
    } catch {
      if (signal.aborted) throw new Error("aborted");
      return openAiError(502, "Workers AI did not answer this request", "upstream_error", null, "workers_ai_error");
    }
    return stream === true ? asEventStream(out) : json(out);
  }

  async models(): Promise<Response> {
    return json({
      object: "list",
      data: LLM_MODELS.map((id) => ({ id, object: "model", created: 0, owned_by: "workers-ai" })),
    });
  }
}
