import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import {
  advanceSession,
  CORE_LIMIT,
  isCoreMemory,
  pickCore,
  type SessionCounter,
  shapeStage,
} from "../../src/memory/recall/progressive-injection";
import type { Memory } from "../../src/memory/types";

const NOW = Date.parse("2026-11-29T12:00:00Z");
const RESET = 300_000;
const scope = { accountId: "a", namespace: "user", userId: "u", actor: "t" };

function mem(id: string, extra: Partial<Memory> = {}): Memory {
  return { ...buildMemory(scope, id, "h", NOW, { content: id, agentId: null }), ...extra };
}
const hit = (id: string, extra: Partial<Memory> = {}, score = 1) => ({ memory: mem(id, extra), score });
const ids = (xs: { memory: Memory }[]) => xs.map((x) => x.memory.id);

describe("advanceSession", () => {
  it("starts a new session at stage 1", () => {
    expect(advanceSession(undefined, NOW, RESET)).toEqual({ stage: 1, counter: { calls: 1, lastAt: NOW } });
  });

  it("walks through stages 1, 2, 3 and stays at 3", () => {
    let counter: SessionCounter | undefined;
    const stages: number[] = [];
    for (let i = 0; i < 6; i++) {
      const next = advanceSession(counter, NOW + i * 1000, RESET);
      stages.push(next.stage);
      counter = next.counter;
    }
    expect(stages).toEqual([1, 2, 3, 3, 3, 3]);
    expect(counter).toEqual({ calls: 3, lastAt: NOW + 5000 });
  });

  it("keeps the session just under the idle limit and restarts at it", () => {
    const previous = { calls: 2, lastAt: NOW };
    expect(advanceSession(previous, NOW + RESET - 1, RESET).stage).toBe(3);
    expect(advanceSession(previous, NOW + RESET, RESET)).toEqual({
      stage: 1,
      counter: { calls: 1, lastAt: NOW + RESET },
    });
    expect(advanceSession(previous, NOW + 10 * RESET, RESET).stage).toBe(1);
  });

  it("measures idle time from the last call, not the first", () => {
    const first = advanceSession(undefined, NOW, RESET);
    const second = advanceSession(first.counter, NOW + RESET - 1000, RESET);
    const third = advanceSession(second.counter, NOW + 2 * RESET - 2000, RESET);
    expect([first.stage, second.stage, third.stage]).toEqual([1, 2, 3]);
  });

  it("with a zero reset window every call is a first call", () => {
    expect(advanceSession({ calls: 1, lastAt: NOW }, NOW, 0).stage).toBe(1);
  });
});

describe("isCoreMemory", () => {
  it("is priority 1-2 or category personal", () => {
    expect(isCoreMemory(mem("a", { priority: 1 }))).toBe(true);
    expect(isCoreMemory(mem("b", { priority: 2, category: "work" }))).toBe(true);
    expect(isCoreMemory(mem("c", { priority: 5, category: "personal" }))).toBe(true);
    expect(isCoreMemory(mem("d", { priority: 3, category: "preference" }))).toBe(false);
  });
});

describe("pickCore", () => {
  it("puts relevant core memories first, in relevance order, then important ones, at most three", () => {
    const relevant = [
      hit("rel-trivia", { priority: 4 }),
      hit("rel-core-a", { priority: 2 }),
      hit("rel-core-b", { category: "personal" }),
    ];
    const fallback = [hit("top", { priority: 1 }), hit("rel-core-a", { priority: 2 }), hit("next", { priority: 2 })];
    expect(ids(pickCore(relevant, fallback))).toEqual(["rel-core-a", "rel-core-b", "top"]);
    expect(CORE_LIMIT).toBe(3);
  });

  it("never returns a non-core memory, even when nothing else exists", () => {
    expect(pickCore([hit("x", { priority: 3 })], [hit("y", { priority: 4 })])).toEqual([]);
  });

  it("does not repeat a memory found both ways", () => {
    const both = hit("same", { priority: 1 });
    expect(ids(pickCore([both], [both, hit("other", { priority: 1 })]))).toEqual(["same", "other"]);
  });
});

describe("shapeStage", () => {
  const relevant = ["r1", "r2", "r3", "r4", "r5", "r6", "r7"].map((id, i) => hit(id, { priority: 3 }, 1 - i / 10));

  it("stage 1 shows core memories and counts every relevant one it left out", () => {
    const core = [hit("me", { priority: 1 }), hit("family", { category: "personal" })];
    const shaped = shapeStage(1, relevant, 7, core, 5);
    expect(ids(shaped.results)).toEqual(["me", "family"]);
    expect(shaped.moreAvailable).toBe(7);
  });

  it("stage 1 does not count a relevant core memory it shows", () => {
    const withCore = [hit("r0", { priority: 1 }), ...relevant];
    const shaped = shapeStage(1, withCore, 8, [], 5);
    expect(ids(shaped.results)).toEqual(["r0"]);
    expect(shaped.moreAvailable).toBe(7);
  });

  it("stage 2 shows the single best match and how many more exist", () => {
    const shaped = shapeStage(2, relevant, 7, [], 5);
    expect(ids(shaped.results)).toEqual(["r1"]);
    expect(shaped.moreAvailable).toBe(6);
  });

  it("stage 3 is a normal search of maxResults", () => {
    const shaped = shapeStage(3, relevant, 7, [], 5);
    expect(ids(shaped.results)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(shaped.moreAvailable).toBe(2);
  });

  it("counts relevant memories beyond the ranked page", () => {
    expect(shapeStage(2, relevant, 60, [], 5).moreAvailable).toBe(59);
  });

  it("has nothing more when nothing is relevant", () => {
    expect(shapeStage(2, [], 0, [], 5)).toEqual({ results: [], moreAvailable: 0 });
    expect(shapeStage(3, [], 0, [], 5)).toEqual({ results: [], moreAvailable: 0 });
  });
});
