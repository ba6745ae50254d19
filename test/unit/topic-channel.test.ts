/**
 * The topic channel's pure parts: which questions it takes (the asker's own life only), the order of
 * the statements it finds (told later first; told earlier first for the past), and that it reorders
 * only the statements of the area, in the places they hold.
 */
import { describe, expect, it } from "vitest";
import { askedTokens } from "../../src/memory/recall/abstention";
import type { FusedCandidate } from "../../src/memory/recall/fuse-scores";
import { asksOnlyTheArea, inTopicOrder, topicQuestion, weighByTime } from "../../src/memory/recall/topic-channel";
import type { Memory } from "../../src/memory/types";

const memory = (id: string, createdAt: number, eventTime: number | null = null) =>
  ({ id, createdAt, eventTime, content: id }) as unknown as Memory;

describe("topicQuestion", () => {
  it("takes a question about the asker's own life", () => {
    expect(topicQuestion("where do I live?", null)?.topics).toEqual(["home"]);
    expect(topicQuestion("我在哪上班", null)?.topics).toContain("work");
    // As an agent asks about the person it serves.
    expect(topicQuestion("where does the user live now?", null)?.topics).toEqual(["home"]);
    expect(topicQuestion("user's current employer", null)?.topics).toContain("work");
    expect(topicQuestion("用户现在住在哪个城市", null)?.topics).toContain("home");
  });

  it("leaves questions about someone else and questions without an area", () => {
    expect(topicQuestion("Where does Caroline live?", null)).toBeNull();
    expect(topicQuestion("What does my uncle do for work?", null)).toBeNull();
    expect(
      topicQuestion("what does my best friend do for work?", {
        names: ["Sarah"],
        keys: ["best friend"],
        expanded: "",
        replaced: "",
      }),
    ).toBeNull();
    expect(topicQuestion("What did I paint last week?", null)).toBeNull();
  });
});

describe("weighByTime", () => {
  it("puts the statement told later first, whatever day it names", () => {
    // "I rent in Seattle" saved first; "I moved to Gothenburg last month" told after, naming an earlier day.
    const older = memory("01A", 1_000, null);
    const newer = memory("01B", 2_000, 500);
    expect(weighByTime([older, newer], false).map((h) => h.memory.id)).toEqual(["01B", "01A"]);
    expect(weighByTime([older, newer], true).map((h) => h.memory.id)).toEqual(["01A", "01B"]);
  });

  it("within one conversation (saved together), the later id is the later turn", () => {
    const hits = weighByTime([memory("01B", 1_000), memory("01A", 1_000)], false);
    expect(hits.map((h) => h.memory.id)).toEqual(["01B", "01A"]);
    expect(hits[0].weight).toBe(1);
    expect(hits[1].weight).toBeLessThan(1);
  });
});

describe("inTopicOrder", () => {
  it("reorders the statements of the area in their own places and leaves the rest", () => {
    const c = (id: string, score: number): FusedCandidate => ({ memory: memory(id, 0), score });
    const ranked = [c("old-home", 0.9), c("other", 0.8), c("new-home", 0.4)];
    const hits = [
      { memory: memory("new-home", 2), weight: 1 },
      { memory: memory("old-home", 1), weight: 0.8 },
    ];
    expect(inTopicOrder(ranked, hits).map((x) => x.memory.id)).toEqual(["new-home", "other", "old-home"]);
    expect(inTopicOrder(ranked, hits.slice(0, 1))).toBe(ranked);
  });

  it("for a question that is all area words, puts the area's statements ahead of the rest", () => {
    const c = (id: string, score: number): FusedCandidate => ({ memory: memory(id, 0), score });
    const ranked = [c("old-home", 0.9), c("other", 0.8), c("new-home", 0.4), c("another", 0.3)];
    const hits = [
      { memory: memory("new-home", 2), weight: 1 },
      { memory: memory("old-home", 1), weight: 0.8 },
    ];
    const ids = (h: typeof hits) => inTopicOrder(ranked, h, true).map((x) => x.memory.id);
    expect(ids(hits)).toEqual(["new-home", "old-home", "other", "another"]);
    expect(ids(hits.slice(0, 1))).toEqual(["new-home", "old-home", "other", "another"]);
    expect(inTopicOrder(ranked, [], true)).toBe(ranked);
  });
});

describe("asksOnlyTheArea", () => {
  const args = (question: string) => {
    const tokens = askedTokens(question, false);
    const asked = topicQuestion(question, null);
    return { readings: [tokens], asked, pool: [], corpusSize: 100, threshold: 0.4 };
  };

  it("a question for the area's value, not one about something in the area", () => {
    expect(asksOnlyTheArea(args("Where's home for me right now?"))).toBe(true);
    expect(asksOnlyTheArea(args("What time do I go to sleep?"))).toBe(true);
    expect(asksOnlyTheArea(args("Where did my girlfriend and I plan to go for the spring festival?"))).toBe(false);
    expect(asksOnlyTheArea({ ...args("what do I paint?"), asked: null })).toBe(false);
  });
});
