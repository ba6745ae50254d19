/**
 * @module providers/openai-compatible/openai-compatible-embedder
 * Embedder on any OpenAI-compatible `/embeddings` endpoint (EMBEDDING_PROVIDER=openai-compatible):
 * bge-m3, nomic-embed-text or qwen3-embedding on Ollama, vLLM, LM Studio, or OpenAI behind AI
 * Gateway. Batches as the Workers AI embedder does (count and characters); vectors come back in
 * `index` order, L2-normalised. Every failure — unreachable, an HTTP error, a timeout, a malformed
 * body, a vector count, a dimension or a component that is not the configured one or not a finite
 * float32 (gate/vector-gate.ts), an answer too large or redirected elsewhere — is
 * provider_unavailable, as for Workers AI, so recall answers from BM25 alone and a write keeps its
 * row for index repair. A dimension mismatch says which setting to change (the index was built for
 * EMBEDDING_DIMENSIONS). A server that keeps failing is skipped for a while (gate/circuit-breaker.ts).
 */
import { z } from "zod";
import { MemoryError } from "../../memory/errors";
import type { Embedder } from "../../memory/ports";
import { CircuitBreaker } from "../gate/circuit-breaker";
import { gateVectors } from "../gate/vector-gate";
import { EMBED_TIMEOUT_MS, embeddingBatches } from "../workers-ai-embedder";
import { type OpenAiCompatibleEndpoint, postJson } from "./openai-compatible-http";

const embeddingsAnswer = z.object({
  // Components are checked by the gate (finite, float32), so the schema takes any JSON value here.
  data: z.array(z.object({ embedding: z.array(z.unknown()), index: z.number().int().min(0).optional() })),
});

/**
 * The most an honest embeddings answer for `texts` vectors of `dims` can take: 32 bytes a component
 * (a float written out in full, its comma, spacing) and 64 KiB for the rest. A larger answer is
 * refused at that size, not at the 8 MiB ceiling (providers/gate/upstream-body.ts).
 */
export function embeddingsAnswerBytes(texts: number, dims: number): number {
  return 64 * 1024 + texts * dims * 32;
}

/** The sentence a wrong-size vector gets: what came, what is configured, what to change. */
export function dimensionMismatch(model: string, got: number, configured: number): string {
  return `Embedding model ${model} returns ${got}-dimension vectors but EMBEDDING_DIMENSIONS is ${configured}: set EMBEDDING_DIMENSIONS=${got} (the vector index must be built for ${got}) or use a model that returns ${configured}`;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  private readonly endpoint: OpenAiCompatibleEndpoint;

  constructor(
    endpoint: OpenAiCompatibleEndpoint,
    readonly model: string,
    readonly dimensions: number,
    private readonly timeoutMs = EMBED_TIMEOUT_MS,
  ) {
    this.endpoint = { ...endpoint, breaker: endpoint.breaker ?? new CircuitBreaker(`embedding model ${model}`) };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of embeddingBatches(texts)) out.push(...(await this.embedBatch(batch)));
    return out;
  }

  private async embedBatch(batch: string[]): Promise<Float32Array[]> {
    let body: unknown;
    try {
      body = await postJson(
        this.endpoint,
        "/embeddings",
        { model: this.model, input: batch },
        this.timeoutMs,
        embeddingsAnswerBytes(batch.length, this.dimensions),
      );
    } catch (err) {
      throw this.unavailable(`is unavailable: ${(err as Error).message}`);
    }
    const parsed = embeddingsAnswer.safeParse(body);
    if (!parsed.success) {
      this.endpoint.breaker?.strike();
      throw this.unavailable("answered a body that is not an embeddings list");
    }
    const rows = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    try {
      return gateVectors(
        `Embedding model ${this.model}`,
        rows.map((r) => r.embedding),
        batch.length,
        this.dimensions,
        (got) => dimensionMismatch(this.model, got, this.dimensions),
      );
    } catch (err) {
      // An answer refused after it came is the server failing too: it counts toward skipping it.
      this.endpoint.breaker?.strike();
      throw err;
    }
  }

  private unavailable(what: string): MemoryError {
    return new MemoryError("provider_unavailable", `Embedding model ${this.model} ${what}`);
  }
}
