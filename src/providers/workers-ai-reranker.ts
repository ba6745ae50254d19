/**
 * @module providers/workers-ai-reranker
 * Reranker on Workers AI (@cf/baai/bge-reranker-base) plus the no-op reranker used offline.
 * Score semantics: logits. Cloudflare's model page says the model "directly output[s] similarity"
 * and that "the score can be mapped to a float value in [0,1] by sigmoid function" (the installed
 * workers-types only say "Score of the context under the index"); BAAI documents the same raw
 * cross-encoder score for its rerankers (e.g. -5.65234375, 0.0034970 after sigmoid). So every score
 * is mapped with one rule, the logistic sigmoid, into (0, 1) — never "as returned" for some values
 * and sigmoid for others (test/unit/workers-ai-adapters.test.ts checks the documented example).
 * Failures (errors, timeouts) throw provider_unavailable; recall then keeps the fused order.
 */

import { MemoryError } from "../memory/errors";
import type { Reranker } from "../memory/ports";
import { withAiTimeout } from "./ai-timeout";
import { CircuitBreaker } from "./gate/circuit-breaker";
import type { AiRerankerBinding, RerankerModel } from "./workers-ai-models";

/** Longest wait for the reranker: it sits on the recall path, so it gives up early. */
export const RERANK_TIMEOUT_MS = 5_000;

export class WorkersAiReranker implements Reranker {
  readonly kind = "workers-ai" as const;
  /** Skips a reranker that keeps failing or answering late: recall keeps the fused order meanwhile. */
  private readonly breaker: CircuitBreaker;

  constructor(
    private readonly ai: AiRerankerBinding,
    private readonly model: RerankerModel,
    private readonly timeoutMs = RERANK_TIMEOUT_MS,
  ) {
    this.breaker = new CircuitBreaker(`reranker ${model}`);
  }

  async rerank(query: string, documents: string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    // The installed types omit `query` (only its comment survives); the model needs it, so the input
    // is a typed object with one extra field rather than a cast.
    const input = { query, contexts: documents.map((text) => ({ text })), top_k: documents.length };
    let ranked: { id?: number; score?: number }[];
    try {
      const result = await withAiTimeout(
        this.timeoutMs,
        (signal) => this.ai.run(this.model, input, { signal }),
        this.breaker,
      );
      ranked = result.response ?? [];
    } catch (err) {
      throw new MemoryError("provider_unavailable", `Reranker ${this.model} is unavailable: ${(err as Error).message}`);
    }
    const scores = new Array<number>(documents.length).fill(0);
    for (const { id, score } of ranked)
      if (id !== undefined && id >= 0 && id < scores.length && typeof score === "number" && Number.isFinite(score))
        scores[id] = rerankRelevance(score);
    return scores;
  }
}

/** The documented mapping from a bge-reranker score (a logit) to relevance in (0, 1). */
export function rerankRelevance(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}

export class NoReranker implements Reranker {
  readonly kind = "none" as const;

  async rerank(_query: string, documents: string[]): Promise<number[]> {
    return documents.map(() => 0);
  }
}
