/**
 * @module providers/workers-ai-models
 * The Workers AI models this server can run, each written as a key of the installed
 * `@cloudflare/workers-types` AiModels: when Cloudflare retires a model, the next types update makes
 * its name here a compile error (`npm run check`), and `npm run deploy:check` refuses to ship it.
 * Config values (plain strings) become these types only through the guards below, never by a cast.
 */

/**
 * Chat models for JSON extraction, conflict decisions and summaries. The default, GLM-4.7-Flash, is
 * Cloudflare's recommended replacement for the retired Llama 3.1 8B: a fast 30B-A3B mixture of
 * experts from Zhipu, trained bilingual Chinese/English, 131k context, reasoning that can be switched
 * off (the answer then gets the whole token budget), and the cheapest of the three per token.
 */
export const LLM_MODELS = [
  "@cf/zai-org/glm-4.7-flash",
  "@cf/google/gemma-4-26b-a4b-it",
  "@cf/qwen/qwen3.8-27b",
] as const satisfies readonly (keyof AiModels)[];
export type LlmModel = (typeof LLM_MODELS)[number];
export const DEFAULT_LLM_MODEL: LlmModel = "@cf/zai-org/glm-4.7-flash";

/** Embedding models and the vector size each one returns (the index's dimensions). */
export const EMBEDDING_MODELS = { "@cf/baai/bge-m3": 1024 } as const satisfies Partial<Record<keyof AiModels, number>>;
export type EmbeddingModel = keyof typeof EMBEDDING_MODELS;

export const RERANKER_MODELS = ["@cf/baai/bge-reranker-base"] as const satisfies readonly (keyof AiModels)[];
export type RerankerModel = (typeof RERANKER_MODELS)[number];

export function isLlmModel(name: string): name is LlmModel {
  return (LLM_MODELS as readonly string[]).includes(name);
}

export function isEmbeddingModel(name: string): name is EmbeddingModel {
  return Object.hasOwn(EMBEDDING_MODELS, name);
}

export function isRerankerModel(name: string): name is RerankerModel {
  return (RERANKER_MODELS as readonly string[]).includes(name);
}

/** What a config error says when a model is not one of these. */
export function unsupportedModel(setting: string, name: string, supported: readonly string[]): string {
  return `${setting} "${name}" is not a Workers AI model this server supports; use one of: ${supported.join(", ")}`;
}

/**
 * The slice of the AI binding each adapter calls, typed per model from AiModels. The real `Ai`
 * binding satisfies these (its per-model overload), and test fakes implement exactly this shape.
 */
export interface AiChatBinding {
  run<M extends LlmModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
    options?: AiOptions,
  ): Promise<AiModels[M]["postProcessedOutputs"]>;
}

export interface AiEmbeddingBinding {
  run<M extends EmbeddingModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
    options?: AiOptions,
  ): Promise<AiModels[M]["postProcessedOutputs"]>;
}

export interface AiRerankerBinding {
  run<M extends RerankerModel>(
    model: M,
    inputs: AiModels[M]["inputs"],
    options?: AiOptions,
  ): Promise<AiModels[M]["postProcessedOutputs"]>;
}
