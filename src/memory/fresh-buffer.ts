/**
 * @module memory/fresh-buffer
 * Vectors written to an eventually consistent index (Vectorize) but not yet seen in its query
 * results. The user's Durable Object keeps one buffer and recall scores it beside the index, so a
 * memory is recallable the moment it is saved. Entries leave when the index returns them, when
 * the memory is removed, or after a TTL (then lexical recall still finds them).
 */

import type { ScoredId } from "./types";
import { cosine } from "./vector-math";

const DEFAULT_TTL_MS = 30 * 60_000;
const DEFAULT_CAPACITY = 5000;

export class FreshBuffer {
  private readonly entries = new Map<string, { vector: Float32Array; addedAt: number }>();

  constructor(
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  add(id: string, vector: Float32Array, now: number): void {
    this.entries.delete(id);
    this.entries.set(id, { vector, addedAt: now });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  remove(ids: Iterable<string>): void {
    for (const id of ids) this.entries.delete(id);
  }

  /** Scores every live entry; expired ones are dropped on the way. */
  score(vector: Float32Array, k: number, now: number): ScoredId[] {
    const out: ScoredId[] = [];
    for (const [id, entry] of this.entries) {
      if (now - entry.addedAt > this.ttlMs) {
        this.entries.delete(id);
        continue;
      }
      if (entry.vector.length === vector.length) out.push({ id, score: cosine(vector, entry.vector) });
    }
    return out.sort((a, b) => b.score - a.score).slice(0, k);
  }
}
