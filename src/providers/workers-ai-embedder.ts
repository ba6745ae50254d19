/**
 * @module providers/workers-ai-embedder
 * Embedder on Workers AI (default @cf/baai/bge-m3, 1024-d, multilingual). Batches of ≤ 100 texts
 * per call, as the model accepts; failures surface as provider_unavailable.
 */

import { MemoryError } from "../memory/errors";
import type { Embedder } from "../memory/ports";
import { l2normalize } from "../memory/vector-math";

const BATCH = 100;

export class WorkersAiEmbedder implements Embedder {
  constructor(
    private readonly ai: Ai,
    readonly model: string,
    readonly dimensions: number,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH);
      let result: { data?: number[][] };
      try {
        result = (await this.ai.run(this.model as keyof AiModels, { text: batch } as never)) as { data?: number[][] };
      } catch (err) {
        throw new MemoryError(
          "provider_unavailable",
          `Embedding model ${this.model} is unavailable: ${(err as Error).message}`,
        );
      }
      if (!result.data || result.data.length !== batch.length) {
        throw new MemoryError(
          "provider_unavailable",
          `Embedding model ${this.model} returned ${result.data?.length ?? 0} vectors for ${batch.length} texts`,
        );
      }
      for (const values of result.data) out.push(l2normalize(Float32Array.from(values)));
    }
    return out;
  }
}
