import { describe, expect, it } from "vitest";
import {
  absorbPatch,
  clusterEdges,
  foldPatch,
  isStrictDuplicate,
  pickWinner,
  sameGroup,
  worthAsking,
} from "../../src/memory/lifecycle/consolidation-clusters";
import { buildMemory } from "../../src/memory/memory-factory";
import type { Memory } from "../../src/memory/types";

const scope = { accountId: "acc", namespace: "user", userId: "u", actor: "t" };
let n = 0;
function mem(content: string, over: Partial<Memory> = {}): Memory {
  n++;
  return {
    ...buildMemory(scope, `m${String(n).padStart(3, "0")}`, `hash-${content.toLowerCase()}`, 1000 + n, {
      content,
      agentId: null,
    }),
    ...over,
  };
}

describe("consolidation clusters", () => {
  it("joins duplicate pairs transitively and drops singletons", () => {
    expect(
      clusterEdges([
        ["a", "b"],
        ["c", "b"],
        ["d", "e"],
      ]),
    ).toEqual([
      ["a", "b", "c"],
      ["d", "e"],
    ]);
    expect(clusterEdges([])).toEqual([]);
    expect(clusterEdges([["x", "x"]])).toEqual([]);
  });

  it("keeps groups apart: another agent or category is never the same memory", () => {
    const a = mem("I like Python");
    expect(sameGroup(a, mem("I like Python"))).toBe(true);
    expect(sameGroup(a, mem("I like Python", { category: "work" }))).toBe(false);
    expect(sameGroup(a, mem("I like Python", { agentId: "cursor" }))).toBe(false);
    expect(sameGroup(a, a)).toBe(false);
  });

  it("calls a pair strict on equal hashes or on high cosine and overlap together, and asks the Llm about looser ones", () => {
    const seed = mem("I like Python");
    expect(isStrictDuplicate({ seed, other: { ...mem("x"), contentHash: seed.contentHash }, cosine: 0 })).toBe(true);
    expect(isStrictDuplicate({ seed, other: mem("I like Python a lot"), cosine: 0.95 })).toBe(true);
    expect(isStrictDuplicate({ seed, other: mem("I like Python a lot"), cosine: 0.8 })).toBe(false);
    expect(isStrictDuplicate({ seed, other: mem("Python snakes are large"), cosine: 0.95 })).toBe(false);
    expect(worthAsking({ seed, other: mem("I love Python"), cosine: 0.52 })).toBe(true);
    expect(worthAsking({ seed, other: mem("My cat is called Miso"), cosine: 0.1 })).toBe(false);
  });

  it("picks the most complete fragment, then the most recent", () => {
    const short = mem("I like Python", { createdAt: 5000 });
    const longOld = mem("I like Python a lot", { createdAt: 1000 });
    const longNew = mem("I really like Python", { createdAt: 2000 });
    expect(pickWinner([short, longOld, longNew]).id).toBe(longNew.id);
    expect(pickWinner([short, mem("i like python", { createdAt: 6000 })]).createdAt).toBe(6000);
  });

  it("folds the others into the winner: tags, best priority and confidence, usage, provenance, expiry", () => {
    const winner = mem("I like Python a lot", {
      tags: ["a"],
      priority: 3,
      confidence: 0.7,
      accessCount: 1,
      expiresAt: 9000,
      derivedFrom: ["source:chat"],
    });
    const other1 = mem("I like Python", {
      tags: ["b"],
      priority: 2,
      confidence: 0.9,
      accessCount: 2,
      lastAccessedAt: 7000,
      expiresAt: null,
      importance: 0.2,
    });
    const other2 = mem("I love Python", {
      tags: ["a", "c"],
      priority: 4,
      confidence: 0.5,
      eventTime: 4000,
      derivedFrom: ["m999"],
    });
    const patch = absorbPatch(winner, [other1, other2], "cron", 10_000);
    expect(patch.id).toBe(winner.id);
    expect(patch.changes).toMatchObject({
      tags: ["a", "b", "c"],
      priority: 2,
      confidence: 0.9,
      accessCount: 3,
      lastAccessedAt: 7000,
      eventTime: 4000,
      expiresAt: null,
      updatedAt: 10_000,
      derivedFrom: ["source:chat", other1.id, other2.id, "m999"],
    });
    expect(patch.changes.importance).toBe(0.7); // priority 2's starting importance beats the fragments' 0.5 and 0.2
    expect(patch.event).toMatchObject({ op: "merge", actor: "cron", at: 10_000, before: { priority: 3, tags: ["a"] } });
    const fold = foldPatch(other1, winner.id, "cron", 10_000);
    expect(fold.changes).toEqual({ status: "superseded", supersededBy: winner.id, updatedAt: 10_000, indexedAt: null });
    expect(fold.event.op).toBe("supersede");
  });
});
