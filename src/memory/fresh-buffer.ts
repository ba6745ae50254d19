/**
 * @module memory/fresh-buffer
 * Vectors written to an eventually consistent index (Vectorize) but not yet seen in its query
 * results. The user's Durable Object keeps one buffer and recall scores it beside the index, so a
 * memory is recallable the moment it is saved. Entries leave when the index returns them, when
 * the memory is removed, or after a TTL (then lexical recall still finds them). The buffer is bounded
 * by bytes as well as by count: 5,000 bge-m3 vectors (1024 × float32) would be 20 MB in an isolate of
 * 128 MB that several objects can share, so the oldest entries leave first once it holds
 * DEFAULT_MAX_BYTES; they are found lexically until the index serves them.
 */

import { finiteVector } from "./model-gate";
import type { ScoredId } from "./types";
import { cosine } from "./vector-math";

const DEFAULT_TTL_MS = 30 * 60_000;
const DEFAULT_CAPACITY = 5000;
/** 4 MiB: ~1,000 bge-m3 vectors, or 2,700 of the local embedder's 384 dimensions. */
export const FRESH_BUFFER_MAX_BYTES = 4 * 1024 * 1024;

export class FreshBuffer {
  private readonly entries = new Map<string, { vector: Float32Array; addedAt: number }>();
  private heldBytes = 0;

  constructor(
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly capacity = DEFAULT_CAPACITY,
    private readonly maxBytes = FRESH_BUFFER_MAX_BYTES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of vector data held (the bound is on these). */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Holds `vector` for `id`; a vector with a component that is not finite is refused (it would score NaN). */
  add(id: string, vector: Float32Array, now: number): void {
    this.drop(id);
    if (!finiteVector(vector)) return;
    this.entries.set(id, { vector, addedAt: now });
    this.heldBytes += vector.byteLength;
    while (this.entries.size > this.capacity || (this.heldBytes > this.maxBytes && this.entries.size > 1)) {
      this.drop(this.entries.keys().next().value as string);
    }
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) this.drop(id);
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.heldBytes -= entry.vector.byteLength;
    this.entries.delete(id);
  }

  /** Scores every live entry; expired ones are dropped on the way. */
  score(vector: Float32Array, k: number, now: number): ScoredId[] {
    const out: ScoredId[] = [];
    for (const [id, entry] of this.entries) {
      if (now - entry.addedAt > this.ttlMs) {
        this.drop(id);
        continue;
      }
      if (entry.vector.length !== vector.length) continue;
      const score = cosine(vector, entry.vector);
      if (Number.isFinite(score)) out.push({ id, score });
    }
    return out.sort((a, b) => b.score - a.score).slice(0, k);
  }
}
