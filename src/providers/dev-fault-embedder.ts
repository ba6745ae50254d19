/**
 * @module providers/dev-fault-embedder
 * A development-only fault for the reliability run (`npm run stress`, docs/reliability.md): the
 * embedder (local or Workers AI) fails every call until a given time, the way the Workers AI adapter
 * reports an outage (provider_unavailable), so the run can show every write landing, recall answering
 * by keywords meanwhile, and the repair job indexing what was written once the window is over.
 * Honoured only when the local vector index is selected AND `DEV_FAULTS=on`, exactly like the vector
 * index fault (storage/dev-fault-vector-index.ts): production runs Vectorize and sets neither, so its
 * config cannot enable it (test/unit/dev-fault-embedder.test.ts).
 */
import type { Config } from "../config";
import { MemoryError } from "../memory/errors";
import type { Embedder } from "../memory/ports";

type FaultConfig = Pick<Config, "VECTOR_INDEX" | "DEV_FAULTS" | "DEV_FAULT_EMBEDDER_UNTIL">;

/** Epoch ms until which the embedder must fail, or null when no fault applies to this config. */
export function embedderFaultUntil(config: FaultConfig): number | null {
  if (config.VECTOR_INDEX !== "local" || config.DEV_FAULTS !== "on") return null;
  return config.DEV_FAULT_EMBEDDER_UNTIL > 0 ? config.DEV_FAULT_EMBEDDER_UNTIL : null;
}

/** Wraps an embedder so every call throws until `until`; the wrapper is transparent afterwards. */
export class DevFaultEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: Embedder,
    private readonly until: number,
    private readonly now: () => number = Date.now,
  ) {
    this.model = inner.model;
    this.dimensions = inner.dimensions;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.now() < this.until)
      throw new MemoryError(
        "provider_unavailable",
        `Embedding model ${this.model} is unavailable (DEV_FAULTS fault window)`,
      );
    return this.inner.embed(texts);
  }
}

/** The embedder, wrapped in the fault when (and only when) the config asks for it. */
export function withEmbedderFault(embedder: Embedder, config: FaultConfig): Embedder {
  const until = embedderFaultUntil(config);
  return until === null ? embedder : new DevFaultEmbedder(embedder, until);
}
