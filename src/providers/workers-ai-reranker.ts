/**
 * @module providers/workers-ai-reranker
 * Reranker on Workers AI (@cf/baai/bge-reranker-base) plus the no-op reranker used offline.
 */

import { MemoryError } from "../memory/errors";
import type { Reranker } from "../memory/ports";

export class WorkersAiReranker implements Reranker {
  readonly kind = "workers-ai" as const;

  constructor(
    private readonly ai: Ai,
    private readonly model: string,
  ) {}

  async rerank(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    let result: { response?: { id: number; score: number }[] };
    try {
      result = (await this.ai.run(
        this.model as keyof AiModels,
        {
          query,
          contexts: documents.map((text) => ({ text })),
          top_k: documents.length,
        } as never,
      )) as typeof result;
    } catch (err) {
      throw new MemoryError("provider_unavailable", `Reranker ${this.model} is unavailable: ${(err as Error).message}`);
    }
    const scores = new Array<number>(documents.length).fill(0);
    for (const r of result.response ?? []) if (r.id >= 0 && r.id < scores.length) scores[r.id] = r.score;
    return scores;
  }
}

export class NoReranker implements Reranker {
  readonly kind = "none" as const;

  async rerank(_query: string, documents: string[]): Promise<number[]> {
    return documents.map(() => 0);
  }
}
