/**
 * @module providers/workers-ai-embedder
 * Embedder on Workers AI (default @cf/baai/bge-m3, 1024-d, multilingual). Texts go in batches bounded
 * by count and by total characters, so one import of long lines never becomes one huge request;
 * `truncate_inputs` lets the model cut a text past its context window instead of failing the batch.
 * Failures surface as provider_unavailable (recall then answers from BM25 alone; writes keep the row
 * and leave it for index repair; the account's spent daily allocation is named as such), and so do vectors that are not of the configured dimension or not
 * finite (gate/vector-gate.ts). A model that keeps failing is skipped for a while (gate/circuit-breaker.ts).
 */

import { MemoryError } from "../memory/errors";
import type { Embedder } from "../memory/ports";
import { isAiDailyAllocation } from "../platform-limits/workers-ai-usage";
import { withAiTimeout } from "./ai-timeout";
import { CircuitBreaker } from "./gate/circuit-breaker";
import { gateVectors } from "./gate/vector-gate";
import type { AiEmbeddingBinding, EmbeddingModel } from "./workers-ai-models";

/** Texts per call (bge-m3 takes up to 100). */
export const EMBED_BATCH_TEXTS = 100;
/** Characters per call, summed over its texts: ~16k tokens of English, fewer bytes on the wire than the request caps. */
export const EMBED_BATCH_CHARS = 48_000;
/** Longest wait for one batch; a recall whose query embedding times out answers from BM25 alone. */
export const EMBED_TIMEOUT_MS = 10_000;

export class WorkersAiEmbedder implements Embedder {
  private readonly breaker: CircuitBreaker;

  constructor(
    private readonly ai: AiEmbeddingBinding,
    readonly model: EmbeddingModel,
    readonly dimensions: number,
    private readonly timeoutMs = EMBED_TIMEOUT_MS,
  ) {
    this.breaker = new CircuitBreaker(`embedding model ${model}`);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of embeddingBatches(texts)) {
      let data: number[][] | undefined;
      try {
        const result = await withAiTimeout(
          this.timeoutMs,
          (signal) => this.ai.run(this.model, { text: batch, truncate_inputs: true }, { signal }),
          this.breaker,
        );
        data = "data" in result ? result.data : undefined;
      } catch (err) {
        throw new MemoryError(
          "provider_unavailable",
          isAiDailyAllocation(err)
            ? `Embedding model ${this.model}: Workers AI's daily free allocation of 10,000 neurons is spent; until 00:00 UTC saves are indexed later and recall answers from keywords`
            : `Embedding model ${this.model} is unavailable: ${(err as Error).message}`,
        );
      }
      try {
        out.push(...gateVectors(`Embedding model ${this.model}`, data ?? [], batch.length, this.dimensions));
      } catch (err) {
        this.breaker.strike();
        throw err;
      }
    }
    return out;
  }
}

/** Consecutive batches of at most EMBED_BATCH_TEXTS texts and EMBED_BATCH_CHARS characters (a longer text goes alone). */
export function embeddingBatches(texts: string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length > 0 && (current.length === EMBED_BATCH_TEXTS || chars + text.length > EMBED_BATCH_CHARS)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
