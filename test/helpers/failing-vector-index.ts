/**
 * A VectorIndex that wraps a real one and fails on demand: every upsert (`failUpserts`), or every
 * upsert after the first `failAfter` calls (a run killed midway). It reports itself eventual, like
 * Vectorize, so recall consults the fresh buffer for vectors the index did not take.
 */
import type { VectorIndex, VectorItem } from "../../src/memory/ports";
import type { Owner, ScoredId } from "../../src/memory/types";

export class FailingVectorIndex implements VectorIndex {
  readonly kind: VectorIndex["kind"];
  readonly eventual = true;
  failUpserts = false;
  failAfter = Number.POSITIVE_INFINITY;
  upsertCalls = 0;

  constructor(private readonly inner: VectorIndex) {
    this.kind = inner.kind;
  }

  async upsert(owner: Owner, items: VectorItem[]): Promise<void> {
    this.upsertCalls++;
    if (this.failUpserts || this.upsertCalls > this.failAfter) throw new Error("vector index unavailable (test fake)");
    await this.inner.upsert(owner, items);
  }

  query(owner: Owner, vector: Float32Array, topK: number): Promise<ScoredId[]> {
    return this.inner.query(owner, vector, topK);
  }

  remove(owner: Owner, ids: string[]): Promise<void> {
    return this.inner.remove(owner, ids);
  }

  async listIds(owner: Owner): Promise<string[] | undefined> {
    return this.inner.listIds?.(owner);
  }
}
