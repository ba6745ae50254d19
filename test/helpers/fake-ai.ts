/**
 * Fake Workers AI bindings typed by the installed workers-types: each fake implements the adapter's
 * binding interface (per-model inputs and outputs from AiModels), so a request or answer shape the
 * real model would not take or give fails `npm run check`, not production.
 */
import type {
  AiChatBinding,
  AiEmbeddingBinding,
  AiRerankerBinding,
  EmbeddingModel,
  LlmModel,
  RerankerModel,
} from "../../src/providers/workers-ai-models";

export type ChatInput = AiModels[LlmModel]["inputs"];
export type ChatOutput = AiModels[LlmModel]["postProcessedOutputs"];
export type ChatCall = { model: LlmModel; inputs: ChatInput; options?: AiOptions };

/** What a fake chat model does with one call: answer, throw, or never answer (until aborted). */
export type ChatBehaviour = (call: ChatCall) => ChatOutput | Promise<ChatOutput>;

export class FakeChatAi implements AiChatBinding {
  readonly calls: ChatCall[] = [];
  constructor(private readonly behaviour: ChatBehaviour) {}

  async run<M extends LlmModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
    options?: AiOptions,
  ): Promise<AiModels[M]["postProcessedOutputs"]> {
    const call: ChatCall = { model, inputs, options };
    this.calls.push(call);
    return this.behaviour(call);
  }
}

/** A ChatCompletionsOutput as the chat models document it, with the answer in choices[0].message. */
export function completion(
  message: Partial<ChatOutput["choices"][number]["message"]>,
  finish: ChatOutput["choices"][number]["finish_reason"] = "stop",
): ChatOutput {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_700_000_000,
    model: "fake",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, refusal: null, ...message },
        finish_reason: finish,
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** The answer as JSON text in message.content (the documented JSON-mode shape). */
export const jsonContent = (value: unknown): ChatOutput => completion({ content: JSON.stringify(value) });

/** Errors the way the binding throws them (message starts with the Workers AI error code). */
export const aiError = (message: string) => () => {
  throw new Error(message);
};

/** A model that never answers unless the request is aborted (the adapter's timeout). */
export const hangs: ChatBehaviour = ({ options }) =>
  new Promise<ChatOutput>((_, reject) =>
    options?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
  );

export class FakeEmbeddingAi implements AiEmbeddingBinding {
  readonly calls: { model: EmbeddingModel; inputs: AiModels[EmbeddingModel]["inputs"] }[] = [];
  constructor(
    private readonly behaviour: (texts: string[]) => AiModels[EmbeddingModel]["postProcessedOutputs"] | Promise<never>,
  ) {}

  async run<M extends EmbeddingModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
  ): Promise<AiModels[M]["postProcessedOutputs"]> {
    this.calls.push({ model, inputs });
    const texts = "text" in inputs ? [inputs.text].flat() : [];
    return this.behaviour(texts);
  }
}

export class FakeRerankerAi implements AiRerankerBinding {
  readonly calls: { model: RerankerModel; inputs: AiModels[RerankerModel]["inputs"] }[] = [];
  constructor(
    private readonly behaviour: (
      inputs: AiModels[RerankerModel]["inputs"],
    ) => AiModels[RerankerModel]["postProcessedOutputs"] | Promise<never>,
  ) {}

  async run<M extends RerankerModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
  ): Promise<AiModels[M]["postProcessedOutputs"]> {
    this.calls.push({ model, inputs });
    return this.behaviour(inputs);
  }
}
