/**
 * @module storage/vectors/dev-fault-vector-index
 * A development-only fault for the reliability run (`npm run stress`, docs/reliability.md): the
 * local vector index fails every call until a given time, so the run can show recall answering
 * from lexical search and the fresh buffer meanwhile, and the repair job catching up afterwards.
 * Honoured only when the local index is selected AND `DEV_FAULTS=on`; production runs Vectorize and
 * sets neither, so its config cannot enable it (test/unit/dev-fault-vector-index.test.ts).
 */
import type { Config } from "../../config";
import type { VectorIndex, VectorItem } from "../../memory/ports";
import type { Owner, ScoredId } from "../../memory/types";

type FaultConfig = Pick<Config, "VECTOR_INDEX" | "DEV_FAULTS" | "DEV_FAULT_VECTOR_INDEX_UNTIL">;

/** Epoch ms until which the vector index must fail, or null when no fault applies to this config. */
export function vectorFaultUntil(config: FaultConfig): number | null {
  if (config.VECTOR_INDEX !== "local" || config.DEV_FAULTS !== "on") return null;
  return config.DEV_FAULT_VECTOR_INDEX_UNTIL > 0 ? config.DEV_FAULT_VECTOR_INDEX_UNTIL : null;
}

/** Wraps the local index so every call throws until `until`; the wrapper is transparent afterwards. */
export class DevFaultVectorIndex implements VectorIndex {
  readonly kind: VectorIndex["kind"];
  readonly eventual: boolean;
  readonly residentBytes?: () => number;

  constructor(
    private readonly inner: VectorIndex,
    private readonly until: number,
    private readonly now: () => number = Date.now,
  ) {
    this.kind = inner.kind;
    this.eventual = inner.eventual;
    if (inner.residentBytes) this.residentBytes = () => inner.residentBytes?.() ?? 0;
  }

  private check(): void {
    if (this.now() < this.until) throw new Error("vector index unavailable (DEV_FAULTS fault window)");
  }

  async upsert(owner: Owner, items: VectorItem[]): Promise<void> {
    this.check();
    await this.inner.upsert(owner, items);
  }

  async query(owner: Owner, vector: Float32Array, topK: number): Promise<ScoredId[]> {
    this.check();
    return this.inner.query(owner, vector, topK);
  }

  async remove(owner: Owner, ids: string[]): Promise<void> {
    this.check();
    await this.inner.remove(owner, ids);
  }

  async listIds(owner: Owner): Promise<string[] | undefined> {
    this.check();
    return this.inner.listIds?.(owner);
  }
}

/** The local index, wrapped in the fault when (and only when) the config asks for it. */
export function withDevFault(index: VectorIndex, config: FaultConfig): VectorIndex {
  const until = vectorFaultUntil(config);
  return until === null ? index : new DevFaultVectorIndex(index, until);
}
