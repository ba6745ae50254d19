/**
 * Vectorize indexes only the first 64 bytes of a string
 * metadata value, so the owner filter holds a fixed-length digest of the injective owner address;
 * rows indexed under the old owner value are re-upserted by the repair job after migration 0006.
 */
import { describe, expect, it } from "vitest";
import { ownerDigest } from "../../src/memory/owner-address";
import type { Owner } from "../../src/memory/types";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { insertMemories, ok, overrideDeps, ownerOf, rowOf, stubOf } from "../helpers/lifecycle";

const long = "u".repeat(70);

describe("Vectorize owner filter", () => {
  it("keeps two owners apart whose addresses share their first 64 bytes", async () => {
    const fake = new FakeVectorize();
    const index = new VectorizeVectorIndex(fake as unknown as VectorizeIndex);
    const a: Owner = { accountId: "default", namespace: "user", userId: `${long}-a` };
    const b: Owner = { accountId: "default", namespace: "user", userId: `${long}-b` };
    const [v] = await new LocalHashEmbedder().embed(["Keeps bees on the roof"]);
    await index.upsert(a, [{ id: "m-a", vector: v }]);
    fake.flush();
    expect(await index.query(b, v, 10)).toEqual([]);
    expect((await index.query(a, v, 10)).map((h) => h.id)).toEqual(["m-a"]);
    const stored = fake.metadataOf("m-a")?.owner;
    expect(stored).toBe(await ownerDigest(a));
    expect(new TextEncoder().encode(String(stored)).length).toBeLessThanOrEqual(64);
  });

  it("the repair job re-upserts rows left unindexed by the migration under the digest", async () => {
    const owner = ownerOf(uniqueUser());
    const fake = new FakeVectorize();
    await overrideDeps(owner, () => ({ index: new VectorizeVectorIndex(fake as unknown as VectorizeIndex) }));
    const rows = await insertMemories(owner, [{ content: "Grows tomatoes" }, { content: "Speaks Catalan" }]);
    // What migration 0006 leaves: active rows with indexed_at null, vectors (if any) under the old owner value.
    await fake.upsert(rows.map((r) => ({ id: r.id, values: [1], metadata: { owner: `default:${owner.userId}` } })));
    fake.flush();
    const report = await ok(
      stubOf(owner).maintain(owner, {
        now: Date.now(),
        jobs: ["repair"],
        budget: { maxMs: 5000, maxRows: 100 },
        policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
      }),
    );
    expect(report.jobs.find((j) => j.job === "repair")?.error).toBeUndefined();
    fake.flush();
    const digest = await ownerDigest(owner);
    for (const r of rows) {
      expect(fake.metadataOf(r.id)?.owner).toBe(digest);
      expect((await rowOf(r.id))?.indexed_at).not.toBeNull();
    }
  });
});
