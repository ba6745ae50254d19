/**
 * One behaviour suite for every VectorIndex adapter (memory/ports.ts), as workers-oauth-provider runs
 * one storage suite over every backend: what recall relies on, whichever index a deployment uses.
 * Each adapter's runner (test/integration/vector-index-conformance.test.ts) hands `run` a way to get
 * a fresh index and to wait until its writes are visible (Vectorize is eventually consistent).
 */
import { describe, expect, it } from "vitest";
import type { VectorIndex } from "../../src/memory/ports";
import type { Owner } from "../../src/memory/types";
import { l2normalize } from "../../src/memory/vector-math";

export const SUITE_DIMS = 8;

/** Runs `body` with a fresh, empty index of SUITE_DIMS dimensions and `settle`, which makes earlier writes visible. */
export type WithIndex = (body: (index: VectorIndex, settle: () => Promise<void>) => Promise<void>) => Promise<void>;

const owner: Owner = { accountId: "acct-conf", namespace: "user", userId: "conformance-owner" };
const other: Owner = { accountId: "acct-conf", namespace: "user", userId: "conformance-other" };
const appUser: Owner = { accountId: "acct-conf", namespace: "app:demo", userId: "conformance-owner" };

/** A unit vector pointing mostly along axis `axis`, tilted by `tilt` towards the next one. */
function axis(axisIndex: number, tilt = 0): Float32Array {
  const v = new Float32Array(SUITE_DIMS);
  v[axisIndex % SUITE_DIMS] = 1;
  v[(axisIndex + 1) % SUITE_DIMS] = tilt;
  return l2normalize(v);
}

export function describeVectorIndex(name: string, withIndex: WithIndex): void {
  describe(`VectorIndex conformance: ${name}`, () => {
    it("ranks by cosine, nearest first, with finite scores in [-1, 1]", async () => {
      await withIndex(async (index, settle) => {
        await index.upsert(owner, [
          { id: "near", vector: axis(0, 0.1) },
          { id: "mid", vector: axis(0, 1) },
          { id: "far", vector: axis(3) },
        ]);
        await settle();
        const hits = await index.query(owner, axis(0), 3);
        expect(hits.map((h) => h.id)).toEqual(["near", "mid", "far"]);
        for (const h of hits) {
          expect(Number.isFinite(h.score)).toBe(true);
          expect(Math.abs(h.score)).toBeLessThanOrEqual(1.01);
        }
        expect(hits[0].score).toBeGreaterThan(hits[1].score);
      });
    });

    it("answers at most topK hits", async () => {
      await withIndex(async (index, settle) => {
        await index.upsert(
          owner,
          Array.from({ length: 6 }, (_, i) => ({ id: `m${i}`, vector: axis(i) })),
        );
        await settle();
        expect(await index.query(owner, axis(0), 2)).toHaveLength(2);
      });
    });

    it("never answers another owner's vectors: another user, or the same user id in another namespace", async () => {
      await withIndex(async (index, settle) => {
        await index.upsert(other, [{ id: "theirs", vector: axis(0) }]);
        await index.upsert(appUser, [{ id: "app-theirs", vector: axis(0) }]);
        await index.upsert(owner, [{ id: "mine", vector: axis(5) }]);
        await settle();
        expect((await index.query(owner, axis(0), 10)).map((h) => h.id)).toEqual(["mine"]);
        expect((await index.query(other, axis(0), 10)).map((h) => h.id)).toEqual(["theirs"]);
      });
    });

    it("replaces a vector upserted again under the same id", async () => {
      await withIndex(async (index, settle) => {
        await index.upsert(owner, [{ id: "moved", vector: axis(0) }]);
        await settle();
        await index.upsert(owner, [{ id: "moved", vector: axis(4) }]);
        await settle();
        const hits = await index.query(owner, axis(4), 5);
        expect(hits.map((h) => h.id)).toEqual(["moved"]);
        expect(hits[0].score).toBeGreaterThan(0.99);
      });
    });

    it("forgets removed ids, and removing an unknown id is no error", async () => {
      await withIndex(async (index, settle) => {
        await index.upsert(owner, [
          { id: "kept", vector: axis(1) },
          { id: "gone", vector: axis(1, 0.2) },
        ]);
        await settle();
        await index.remove(owner, ["gone", "never-there"]);
        await settle();
        expect((await index.query(owner, axis(1), 5)).map((h) => h.id)).toEqual(["kept"]);
      });
    });

    it("answers nothing for an owner with no vectors", async () => {
      await withIndex(async (index) => {
        expect(await index.query({ ...owner, userId: "nobody-here" }, axis(0), 5)).toEqual([]);
      });
    });
  });
}
