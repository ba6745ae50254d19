/**
 * @module storage/vectors/vectorize-vector-index
 * VectorIndex on Cloudflare Vectorize. One index for all users; the owner is an indexed metadata
 * field filtered with $eq (namespaces cap at 50k per index). Vectorize indexes only the first 64 bytes
 * of a string metadata value, so the field holds `ownerDigest` (memory/owner-address.ts: base64url
 * SHA-256 of the injective owner address, 43 characters), never the address itself. Queries return ids only (topK ≤ 100
 * without metadata); the service hydrates and re-validates them from D1. Mutations are asynchronous,
 * hence `eventual` and the service's fresh buffer.
 */

import { ownerDigest } from "../../memory/owner-address";
import type { VectorIndex, VectorItem } from "../../memory/ports";
import type { Owner, ScoredId } from "../../memory/types";

const MAX_TOP_K = 100;
const UPSERT_BATCH = 500;

export class VectorizeVectorIndex implements VectorIndex {
  readonly kind = "vectorize" as const;
  readonly eventual = true;

  constructor(private readonly index: VectorizeIndex) {}

  async upsert(owner: Owner, items: VectorItem[]): Promise<void> {
    const key = await ownerDigest(owner);
    for (let i = 0; i < items.length; i += UPSERT_BATCH) {
      const batch = items.slice(i, i + UPSERT_BATCH).map((item) => ({
        id: item.id,
        values: Array.from(item.vector),
        metadata: { owner: key },
      }));
      await this.index.upsert(batch);
    }
  }

  async query(owner: Owner, vector: Float32Array, topK: number): Promise<ScoredId[]> {
    const result = await this.index.query(Array.from(vector), {
      topK: Math.min(topK, MAX_TOP_K),
      filter: { owner: { $eq: await ownerDigest(owner) } },
      returnMetadata: "none",
      returnValues: false,
    });
    return result.matches.map((m) => ({ id: m.id, score: m.score }));
  }

  async remove(_owner: Owner, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += UPSERT_BATCH) await this.index.deleteByIds(ids.slice(i, i + UPSERT_BATCH));
  }
}
