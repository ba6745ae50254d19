/**
 * @module providers/openai-compatible/openai-compatible-embedder
 * Embedder on any OpenAI-compatible `/embeddings` endpoint (EMBEDDING_PROVIDER=openai-compatible):
 * bge-m3, nomic-embed-text or qwen3-embedding on Ollama, vLLM, LM Studio, or OpenAI behind AI
 * Gateway. Batches as the Workers AI embedder does (count and characters); vectors come back in
 * `index` order, L2-normalised. Every failure — unreachable, an HTTP error, a timeout, a malformed
 * body, a vector count or a dimension that is not the configured one — is provider_unavailable, as
 * for Workers AI, so recall answers from BM25 alone and a write keeps its row for index repair. A
 * dimension mismatch says which setting to change (the index was built for EMBEDDING_DIMENSIONS).
 */
import { z } from "zod";
import { MemoryError } from "../../memory/errors";
import type { Embedder } from "../../memory/ports";
import { l2normalize } from "../../memory/vector-math";
import { EMBED_TIMEOUT_MS, embeddingBatches } from "../workers-ai-embedder";
import { type OpenAiCompatibleEndpoint, postJson } from "./openai-compatible-http";

const embeddingsAnswer = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().min(0).optional() })),
});

/** The sentence a wrong-size vector gets: what came, what is configured, what to change. */
export function dimensionMismatch(model: string, got: number, configured: number): string {
  return `Embedding model ${model} returns ${got}-dimension vectors but EMBEDDING_DIMENSIONS is ${configured}: set EMBEDDING_DIMENSIONS=${got} (the vector index must be built for ${got}) or use a model that returns ${configured}`;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  constructor(
    private readonly endpoint: OpenAiCompatibleEndpoint,
    readonly model: string,
    readonly dimensions: number,
    private readonly timeoutMs = EMBED_TIMEOUT_MS,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of embeddingBatches(texts)) out.push(...(await this.embedBatch(batch)));
    return out;
  }

  private async embedBatch(batch: string[]): Promise<Float32Array[]> {
    let body: unknown;
    try {
      body = await postJson(this.endpoint, "/embeddings", { model: this.model, input: batch }, this.timeoutMs);
    } catch (err) {
      throw this.unavailable(`is unavailable: ${(err as Error).message}`);
    }
    const parsed = embeddingsAnswer.safeParse(body);
    if (!parsed.success) throw this.unavailable("answered a body that is not an embeddings list");
    const rows = [...parsed.data.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (rows.length !== batch.length)
      throw this.unavailable(`returned ${rows.length} vectors for ${batch.length} texts`);
    const wrong = rows.find((r) => r.embedding.length !== this.dimensions);
    if (wrong)
      throw new MemoryError(
        "provider_unavailable",
        dimensionMismatch(this.model, wrong.embedding.length, this.dimensions),
      );
    return rows.map((r) => l2normalize(Float32Array.from(r.embedding)));
  }

  private unavailable(what: string): MemoryError {
    return new MemoryError("provider_unavailable", `Embedding model ${this.model} ${what}`);
  }
}
