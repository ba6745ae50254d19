import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import type { SessionCounter } from "../../src/memory/ports";
import {
  advanceSession,
  CORE_LIMIT,
  FIRST_CALL_MATCHES,
  FIRST_CALL_TOKENS,
  isCoreMemory,
  PROFILE_BESIDE_MATCHES,
  pickFirstCall,
  STRONG_SHARE,
  shapeStage,
  strongMatches,
  withinBudget,
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

describe("strongMatches", () => {
  it("keeps the best match and those within STRONG_SHARE of it, at most max", () => {
    const ranked = [hit("a", {}, 1), hit("b", {}, 0.85), hit("c", {}, 0.8), hit("d", {}, 0.79), hit("e", {}, 0.9)];
    expect(STRONG_SHARE).toBe(0.8);
    expect(ids(strongMatches(ranked, 5))).toEqual(["a", "b", "c", "e"]);
    expect(ids(strongMatches(ranked, 2))).toEqual(["a", "b"]);
    expect(strongMatches([], 3)).toEqual([]);
  });
});

describe("pickFirstCall", () => {
  const core = [
    hit("name", { priority: 1 }, 0),
    hit("tone", { priority: 2 }, 0),
    hit("city", { category: "personal" }, 0),
  ];

  it("answers the question first, then a small profile of core memories not already shown", () => {
    const relevant = [hit("commute", { priority: 3 }, 1), hit("name", { priority: 1 }, 0.9), hit("weak", {}, 0.3)];
    expect(ids(pickFirstCall(relevant, core))).toEqual(["commute", "name", "tone", "city"]);
    expect(PROFILE_BESIDE_MATCHES).toBe(2);
  });

  it("shows at most FIRST_CALL_MATCHES strong matches", () => {
    const relevant = ["a", "b", "c", "d", "e", "f"].map((id) => hit(id, {}, 1));
    expect(ids(pickFirstCall(relevant, []))).toEqual(["a", "b", "c", "d"]);
    expect(FIRST_CALL_MATCHES).toBe(4);
  });

  it("without matches shows up to CORE_LIMIT core memories, and never a non-core one as profile", () => {
    expect(ids(pickFirstCall([], [...core, hit("extra", { priority: 1 }, 0)]))).toEqual(["name", "tone", "city"]);
    expect(CORE_LIMIT).toBe(3);
    expect(pickFirstCall([], [hit("y", { priority: 4 }, 0)])).toEqual([]);
  });
});

describe("the stage-1 token budget", () => {
  const long = (id: string, score: number, chars: number) => hit(id, { content: "x".repeat(chars) }, score);

  it("keeps matches and profile only while their text fits, matches first", () => {
    // 400 characters = 100 tokens each: 200 holds two of them.
    const relevant = [long("a", 1, 400), long("b", 0.95, 400), long("c", 0.9, 400)];
    const core = [hit("name", { priority: 1, content: "x".repeat(400) }, 0)];
    expect(FIRST_CALL_TOKENS).toBe(200);
    expect(ids(pickFirstCall(relevant, core))).toEqual(["a", "b"]);
    expect(ids(pickFirstCall(relevant, core, 1000))).toEqual(["a", "b", "c", "name"]);
  });

  it("always shows the first item, even one longer than the budget", () => {
    expect(ids(withinBudget([long("huge", 1, 4000), long("small", 0.9, 4)], 200))).toEqual(["huge"]);
    expect(ids(pickFirstCall([], [hit("me", { priority: 1, content: "y".repeat(4000) }, 0)], 50))).toEqual(["me"]);
  });

  it("counts the text a stage shows (an excerpt) against the budget, not the whole content", () => {
    const relevant = [long("a", 1, 400), long("b", 0.95, 400), long("c", 0.9, 400)];
    const excerpt = (item: { memory: Memory }) => item.memory.content.slice(0, 40); // 10 tokens each
    expect(ids(pickFirstCall(relevant, [], 30, excerpt))).toEqual(["a", "b", "c"]);
    expect(ids(pickFirstCall(relevant, [], 30))).toEqual(["a"]);
    expect(ids(shapeStage(1, relevant, 3, [], 5, 20, excerpt).results)).toEqual(["a", "b"]);
  });

  it("counts a Chinese character as a token", () => {
    const zh = (id: string) => hit(id, { content: "我住在上海每天骑自行车上班".repeat(10) }, 1); // 130 tokens
    expect(ids(withinBudget([zh("a"), zh("b")], 200))).toEqual(["a"]);
    expect(ids(withinBudget([zh("a"), zh("b")], 260))).toEqual(["a", "b"]);
  });

  it("shapeStage reports as matches only the matches the budget kept", () => {
    const relevant = [long("a", 1, 400), long("b", 0.95, 400), long("c", 0.9, 400)];
    const shaped = shapeStage(1, relevant, 3, [hit("me", { priority: 1 }, 0)], 5, 200);
    expect(ids(shaped.results)).toEqual(["a", "b"]);
    expect(shaped.matches).toBe(2);
    expect(shaped.moreAvailable).toBe(1);
  });
});

describe("shapeStage", () => {
  const relevant = ["r1", "r2", "r3", "r4", "r5", "r6", "r7"].map((id, i) => hit(id, { priority: 3 }, 1 - i / 10));

  it("stage 1 shows the strong matches and the profile, and counts the relevant ones it left out", () => {
    const core = [hit("me", { priority: 1 }, 0), hit("family", { category: "personal" }, 0)];
    const shaped = shapeStage(1, relevant, 7, core, 5);
    expect(ids(shaped.results)).toEqual(["r1", "r2", "r3", "me", "family"]);
    expect(shaped.matches).toBe(3);
    expect(shaped.moreAvailable).toBe(4);
  });

  it("stage 1 does not repeat a core memory that is also a match", () => {
    const withCore = [hit("r0", { priority: 1 }, 1.1), ...relevant];
    const shaped = shapeStage(1, withCore, 8, [hit("r0", { priority: 1 }, 0)], 5);
    expect(ids(shaped.results)).toEqual(["r0", "r1", "r2"]);
    expect(shaped.moreAvailable).toBe(5);
  });

  it("stage 2 shows the best match and the strong ones next to it, and how many more exist", () => {
    const shaped = shapeStage(2, relevant, 7, [], 5);
    expect(ids(shaped.results)).toEqual(["r1", "r2", "r3"]);
    expect(shaped.moreAvailable).toBe(4);
    const lone = [hit("best", {}, 1), hit("far", {}, 0.5)];
    expect(ids(shapeStage(2, lone, 2, [], 5).results)).toEqual(["best"]);
  });

  it("stage 3 is a normal search of maxResults", () => {
    const shaped = shapeStage(3, relevant, 7, [], 5);
    expect(ids(shaped.results)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
    expect(shaped.moreAvailable).toBe(2);
  });

  it("counts relevant memories beyond the ranked page", () => {
    expect(shapeStage(2, relevant, 60, [], 5).moreAvailable).toBe(57);
  });

  it("has nothing more when nothing is relevant", () => {
    expect(shapeStage(2, [], 0, [], 5)).toEqual({ results: [], matches: 0, moreAvailable: 0 });
    expect(shapeStage(3, [], 0, [], 5)).toEqual({ results: [], matches: 0, moreAvailable: 0 });
  });
});
