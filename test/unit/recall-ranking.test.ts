import { describe, expect, it } from "vitest";
import { FreshBuffer } from "../../src/memory/fresh-buffer";
import { buildMemory } from "../../src/memory/memory-factory";
import { fuseScores } from "../../src/memory/recall/fuse-scores";
import { passesRecallFilter, type RecallFilter } from "../../src/memory/recall/recall-filters";
import { topK } from "../../src/memory/top-k";
import type { Memory } from "../../src/memory/types";
import { l2normalize } from "../../src/memory/vector-math";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const scope = { accountId: "a", namespace: "user", userId: "u", actor: "t" };
/** Local embedder, a 100-row full-text index (BM25 4 ≈ one specific word matched). */
const CTX = { embedderKind: "local", corpusSize: 100, now: NOW };
function mem(id: string, extra: Partial<Memory> = {}): Memory {
  return { ...buildMemory(scope, id, "h", NOW - 86_400_000, { content: id, agentId: null }), ...extra };
}

describe("topK", () => {
  it("returns the k best in descending order", () => {
    expect(topK([0.1, 0.9, 0.5, 0.7, 0.3], 3)).toEqual([
      { index: 1, score: 0.9 },
      { index: 3, score: 0.7 },
      { index: 2, score: 0.5 },
    ]);
    expect(topK([1, 2], 5).map((x) => x.index)).toEqual([1, 0]);
    expect(topK([1, 2], 0)).toEqual([]);
  });
});

describe("fuseScores", () => {
  it("needs lexical evidence or a cosine above the floor", () => {
    const rows = [mem("lexical"), mem("dense"), mem("weak")];
    const evidence = new Map([
      ["lexical", { cosine: 0.1, bm25: 4 }],
      ["dense", { cosine: 0.6, bm25: 0 }],
      ["weak", { cosine: 0.2, bm25: 0 }],
    ]);
    const ids = fuseScores(rows, evidence, CTX).map((c) => c.memory.id);
    expect(ids).toContain("lexical");
    expect(ids).toContain("dense");
    expect(ids).not.toContain("weak");
  });

  it("boosts higher priority at equal evidence", () => {
    const rows = [mem("p5", { priority: 5, importance: 0.1 }), mem("p1", { priority: 1, importance: 0.9 })];
    const e = { cosine: 0.5, bm25: 2 };
    const out = fuseScores(
      rows,
      new Map([
        ["p5", e],
        ["p1", e],
      ]),
      CTX,
    );
    expect(out.map((c) => c.memory.id)).toEqual(["p1", "p5"]);
  });

  it("decays slowly with age: a year-old memory keeps most of its score", () => {
    const fresh = mem("fresh", { eventTime: NOW });
    const old = mem("old", { eventTime: NOW - 365 * 86_400_000 });
    const e = { cosine: 0.5, bm25: 2 };
    const [a, b] = fuseScores(
      [fresh, old],
      new Map([
        ["fresh", e],
        ["old", e],
      ]),
      CTX,
    );
    expect(a.memory.id).toBe("fresh");
    expect(b.score / a.score).toBeGreaterThan(0.9);
  });
});

describe("passesRecallFilter", () => {
  const base: RecallFilter = { includeSuperseded: false, agentId: null, now: NOW };
  it("drops inactive, expired and other agents' private memories", () => {
    expect(passesRecallFilter(mem("a"), base)).toBe(true);
    expect(passesRecallFilter(mem("a", { status: "superseded" }), base)).toBe(false);
    expect(passesRecallFilter(mem("a", { status: "superseded" }), { ...base, includeSuperseded: true })).toBe(true);
    expect(passesRecallFilter(mem("a", { status: "quarantined" }), { ...base, includeSuperseded: true })).toBe(false);
    expect(passesRecallFilter(mem("a", { expiresAt: NOW - 1 }), base)).toBe(false);
    expect(passesRecallFilter(mem("a", { agentId: "cursor" }), base)).toBe(false);
    expect(passesRecallFilter(mem("a", { agentId: "cursor" }), { ...base, agentId: "cursor" })).toBe(true);
    expect(passesRecallFilter(mem("a", { agentId: "cursor" }), { ...base, agentId: "lobe" })).toBe(false);
  });

  it("applies category, tags, type and the time window", () => {
    const m = mem("a", { category: "food", tags: ["x", "y"], memoryType: "episodic", eventTime: NOW - 10 });
    expect(
      passesRecallFilter(m, {
        ...base,
        category: "food",
        tags: ["y"],
        memoryType: "episodic",
        since: NOW - 100,
        until: NOW,
      }),
    ).toBe(true);
    expect(passesRecallFilter(m, { ...base, tags: ["y", "z"] })).toBe(false);
    expect(passesRecallFilter(m, { ...base, since: NOW })).toBe(false);
    expect(passesRecallFilter(m, { ...base, memoryType: "semantic" })).toBe(false);
  });
});

describe("FreshBuffer", () => {
  it("scores entries, forgets confirmed ones and expires old ones", () => {
    const buffer = new FreshBuffer(1000, 2);
    const v = l2normalize(Float32Array.from([1, 0]));
    const w = l2normalize(Float32Array.from([0, 1]));
    buffer.add("a", v, 0);
    buffer.add("b", w, 0);
    expect(buffer.score(v, 5, 10).map((h) => h.id)).toEqual(["a", "b"]);
    buffer.add("c", v, 500);
    expect(buffer.size).toBe(2);
    buffer.remove(["b"]);
    expect(buffer.score(v, 5, 1200).map((h) => h.id)).toEqual(["c"]);
  });
});
