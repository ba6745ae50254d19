/**
 * @module providers/workers-ai-embedder
 * Embedder on Workers AI (default @cf/baai/bge-m3, 1024-d, multilingual). Texts go in batches bounded
 * by count and by total characters, so one import of long lines never becomes one huge request;
 * `truncate_inputs` lets the model cut a text past its context window instead of failing the batch.
 * Failures surface as provider_unavailable (recall then answers from BM25 alone; writes keep the row
 * and leave it for index repair).
 */

import { MemoryError } from "../memory/errors";
import type { Embedder } from "../memory/ports";
import { l2normalize } from "../memory/vector-math";
import { withAiTimeout } from "./ai-timeout";
import type { AiEmbeddingBinding, EmbeddingModel } from "./workers-ai-models";

/** Texts per call (bge-m3 takes up to 100). */
export const EMBED_BATCH_TEXTS = 100;
/** Characters per call, summed over its texts: ~16k tokens of English, fewer bytes on the wire than the request caps. */
export const EMBED_BATCH_CHARS = 48_000;
/** Longest wait for one batch; a recall whose query embedding times out answers from BM25 alone. */
export const EMBED_TIMEOUT_MS = 10_000;

export class WorkersAiEmbedder implements Embedder {
  constructor(
    private readonly ai: AiEmbeddingBinding,
    readonly model: EmbeddingModel,
    readonly dimensions: number,
    private readonly timeoutMs = EMBED_TIMEOUT_MS,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of embeddingBatches(texts)) {
      let data: number[][] | undefined;
      try {
        const result = await withAiTimeout(this.timeoutMs, (signal) =>
          this.ai.run(this.model, { text: batch, truncate_inputs: true }, { signal }),
        );
        data = "data" in result ? result.data : undefined;
      } catch (err) {
        throw new MemoryError(
          "provider_unavailable",
          `Embedding model ${this.model} is unavailable: ${(err as Error).message}`,
        );
      }
      if (!data || data.length !== batch.length) {
        throw new MemoryError(
          "provider_unavailable",
          `Embedding model ${this.model} returned ${data?.length ?? 0} vectors for ${batch.length} texts`,
        );
      }
      for (const values of data) out.push(l2normalize(Float32Array.from(values)));
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
