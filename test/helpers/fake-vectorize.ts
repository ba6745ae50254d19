/**
 * A fake Vectorize binding whose mutations become visible only after flush(), like the real
 * service (seconds later). Implements the subset of VectorizeIndex the adapter uses, with the
 * metadata $eq filter semantics — including Vectorize's metadata index keeping only the first
 * 64 bytes of a string value, so two values sharing those bytes match the same filter.
 */
const INDEXED_STRING_BYTES = 64;
const encoder = new TextEncoder();

function indexedValue(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return encoder.encode(value).slice(0, INDEXED_STRING_BYTES).join(",");
}

type Stored = { id: string; values: number[]; metadata?: Record<string, unknown> };

export class FakeVectorize {
  private visible = new Map<string, Stored>();
  private pending: (() => void)[] = [];
  queries = 0;

  async upsert(vectors: Stored[]) {
    this.pending.push(() => vectors.forEach((v) => this.visible.set(v.id, v)));
    return { mutationId: `m${this.pending.length}` };
  }

  async deleteByIds(ids: string[]) {
    this.pending.push(() => ids.forEach((id) => this.visible.delete(id)));
    return { mutationId: `d${this.pending.length}` };
  }

  async query(vector: number[], options: { topK: number; filter?: Record<string, { $eq: unknown }> }) {
    this.queries++;
    const matches = [...this.visible.values()]
      .filter((v) =>
        Object.entries(options.filter ?? {}).every(
          ([k, cond]) => indexedValue(v.metadata?.[k]) === indexedValue(cond.$eq),
        ),
      )
      .map((v) => ({ id: v.id, score: v.values.reduce((s, x, i) => s + x * vector[i], 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, options.topK);
    return { matches, count: matches.length };
  }

  /** Applies every queued mutation, as Vectorize does once it has processed them. */
  flush() {
    this.pending.splice(0).forEach((apply) => apply());
  }

  /** Metadata of a visible vector (tests check what the adapter stores). */
  metadataOf(id: string): Record<string, unknown> | undefined {
    return this.visible.get(id)?.metadata;
  }

  get size() {
    return this.visible.size;
  }
}
