/**
 * One behaviour suite for every Embedder adapter (memory/ports.ts): what the write path and recall
 * rely on, whichever embedder a deployment uses — one unit-length, finite vector of the declared
 * dimensions per text, in input order, the same vector for the same text, and a model name to record.
 * Runners: test/unit/embedder-conformance.test.ts (local hash, Workers AI over a fake binding) and
 * test/node/embedder-conformance.test.ts (OpenAI-compatible against a loopback server).
 */
import { describe, expect, it } from "vitest";
import type { Embedder } from "../../src/memory/ports";

const TEXTS = ["I live in Lisbon", "我搬到杭州了", "My brother teaches chemistry", "我闺蜜叫小雅"];

function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

export function describeEmbedder(name: string, make: () => Embedder | Promise<Embedder>): void {
  describe(`Embedder conformance: ${name}`, () => {
    it("names its model and declares positive dimensions", async () => {
      const embedder = await make();
      expect(embedder.model.length).toBeGreaterThan(0);
      expect(Number.isInteger(embedder.dimensions) && embedder.dimensions > 0).toBe(true);
    });

    it("answers one finite, unit-length vector of the declared dimensions per text, English and Chinese", async () => {
      const embedder = await make();
      const vectors = await embedder.embed(TEXTS);
      expect(vectors).toHaveLength(TEXTS.length);
      for (const v of vectors) {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v.length).toBe(embedder.dimensions);
        expect(v.every(Number.isFinite)).toBe(true);
        expect(norm(v)).toBeCloseTo(1, 4);
      }
    });

    it("keeps input order: each text's vector is the one it gets alone", async () => {
      const embedder = await make();
      const together = await embedder.embed(TEXTS);
      const alone = await embedder.embed([TEXTS[2]]);
      expect(Array.from(together[2])).toEqual(Array.from(alone[0]));
      expect(Array.from(together[0])).not.toEqual(Array.from(together[1]));
    });

    it("answers nothing for no texts", async () => {
      const embedder = await make();
      expect(await embedder.embed([])).toEqual([]);
    });
  });
}
