import { describe, expect, it } from "vitest";
import { extractionCases } from "../../scripts/lib/extract-data";
import { scoreSession, turnRecallAt10 } from "../../scripts/lib/extract-metrics";

const sample = (id: string) => ({
  sample_id: id,
  conversation: {
    speaker_a: "Ann",
    speaker_b: "Bo",
    session_1_date_time: "1:56 pm on 8 May, 2023",
    session_1: [
      { speaker: "Ann", dia_id: "D1:1", text: "Hi Bo!" },
      { speaker: "Bo", dia_id: "D1:2", text: "I adopted a cat.\nHer name is Miso." },
      { speaker: "Ann", dia_id: "D1:3", text: "I moved to Porto.", blip_caption: "a photo of a bridge" },
    ],
  },
  observation: {
    session_1_observation: { Ann: [["Ann moved to Porto.", "D1:3"]], Bo: [["Bo adopted a cat named Miso.", "D1:2"]] },
  },
  qa: [
    { question: "Where did Ann move?", evidence: ["D1:3"], category: 4 },
    { question: "What pet does Bo have?", evidence: ["D1:2"], category: 1 },
    { question: "Adversarial", evidence: ["D1:3"], category: 5 },
  ],
});

describe("extraction benchmark cases", () => {
  const cases = extractionCases([sample("s-1"), sample("s-1")]);

  it("makes one case per speaker with injective user ids, even when sample ids repeat", () => {
    expect(cases.map((c) => [c.speaker, c.userId, c.rawUserId])).toEqual([
      ["Ann", "ex-0-a", "raw-0-a"],
      ["Bo", "ex-0-b", "raw-0-b"],
      ["Ann", "ex-1-a", "raw-1-a"],
      ["Bo", "ex-1-b", "raw-1-b"],
    ]);
  });

  it("renders a session as one line per turn and keeps each speaker's observations and questions", () => {
    const [ann, bo] = cases;
    expect(ann.sessions[0].transcript).toBe(
      "Ann: Hi Bo!\nBo: I adopted a cat. Her name is Miso.\nAnn: I moved to Porto. [shared an image: a photo of a bridge]",
    );
    expect(ann.sessions[0].date).toBe("2023-05-08T13:56:00.000Z");
    expect(ann.sessions[0].observations).toEqual([["D1:3"]]);
    expect([...ann.sessions[0].observed].sort()).toEqual(["D1:2", "D1:3"]);
    expect(ann.questions.map((q) => q.relevant)).toEqual([["D1:3"]]);
    expect(bo.questions.map((q) => q.question)).toEqual(["What pet does Bo have?"]);
    expect(ann.rawTurns.map((t) => t.externalId)).toEqual(["D1:1", "D1:3"]);
  });

  it("scores coverage, precision, noise and filler from the outcomes' turns", () => {
    const session = cases[0].sessions[0];
    const turnsOf = new Map<string, Set<string>>();
    const score = scoreSession(
      session,
      "Ann",
      [
        { status: "created", id: "m1", turn: 3 },
        { status: "created", id: "m2", turn: 1 },
        { status: "created", id: "m3", turn: 2 },
        { status: "rejected", id: null, turn: 3 },
      ],
      turnsOf,
    );
    expect(score).toEqual({ observations: 1, covered: 1, stored: 3, precise: 2, noise: 1, filler: 1 });
    expect(turnRecallAt10(["m2", "m1"], (id) => turnsOf.get(id) ?? [], ["D1:3"])).toBe(1);
    expect(turnRecallAt10(["m2"], (id) => turnsOf.get(id) ?? [], ["D1:3"])).toBe(0);
  });
});

describe("bench:extract --offline: the extractor alone, scored as the server's answers are", () => {
  it("scores LoCoMo speakers from the rules' facts and lists misses and kept filler", async () => {
    const { offlineLocomo } = await import("../../scripts/lib/extract-offline");
    const r = offlineLocomo(extractionCases([sample("s1")]), true);
    // Ann's "I moved to Porto." and Bo's "I adopted a cat." are kept; "Hi Bo!" is not.
    expect(r.score).toMatchObject({ observations: 2, covered: 2, noise: 0, filler: 0 });
    expect(r.sessions).toBe(2);
    expect(r.shown).toEqual([]);
  });

  it("scores the Chinese set by split and never lists the test split", async () => {
    const { offlineChinese } = await import("../../scripts/lib/extract-offline");
    const conversation = (id: string, split: "dev" | "test") => ({
      id,
      date: "2027-01-10",
      split,
      messages: [
        { role: "user" as const, content: "我叫林晓。我不吃辣，也不吃香菜。我在杭州工作。" },
        { role: "assistant" as const, content: "我喜欢帮助你。" },
      ],
      facts: [
        { turn: 1, fact: "我叫林晓", category: "personal" },
        { turn: 1, fact: "我不吃香菜", category: "constraint" },
        { turn: 1, fact: "我对花生过敏", category: "constraint" },
      ],
    });
    const r = offlineChinese([conversation("d1", "dev"), conversation("t1", "test")], true);
    expect(r.bySplit.dev).toEqual({ facts: 3, covered: 2, stored: 4, precise: 3, noise: 0 });
    expect(r.bySplit.test).toEqual(r.bySplit.dev);
    expect(r.shown).toEqual(["  missed d1:1  我对花生过敏", "  kept   d1:1  我在杭州工作。"]);
  });
});

describe("bench:extract --ids: the Chinese conversations a run scores", () => {
  it("takes ids and ranges of ids, in the set's order, and refuses an id the set does not have", async () => {
    const { selectConversations } = await import("../../scripts/lib/extract-zh");
    const list = ["c01", "c09", "c10", "c25", "c33"].map((id) => ({
      id,
      date: "2027-01-10",
      split: "dev" as const,
      messages: [],
      facts: [],
    }));
    const ids = (spec: string) => selectConversations(list, spec).map((c) => c.id);
    expect(ids("c09-c25")).toEqual(["c09", "c10", "c25"]);
    expect(ids("c33,c01")).toEqual(["c01", "c33"]);
    expect(ids("c25-c33, c01")).toEqual(["c01", "c25", "c33"]);
    expect(() => ids("c02")).toThrow("no conversation c02");
    expect(() => ids("c11-c20")).toThrow("no conversation in c11-c20");
  });
});

describe("bench/zh-extract.json: the split of the conversations added together", () => {
  it("puts in test what the seeded rule says, and c25–c33's split is that rule's", async () => {
    const { fnv1a32, seededTestSplit, selectConversations, ZH_SPLIT_SEED, zhConversations } = await import(
      "../../scripts/lib/extract-zh"
    );
    // FNV-1a's published vectors.
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    const facts = (n: number) => Array.from({ length: n }, () => ({ turn: 1, fact: "我叫林晓", category: "personal" }));
    const list = ["x1", "x2", "x3", "x4", "x5"].map((id) => ({ id, facts: facts(10) }));
    expect(seededTestSplit(list, "s")).toHaveLength(1);
    const { default: set } = await import("../../bench/zh-extract.json");
    const added = selectConversations(zhConversations(set), "c25-c33");
    expect(seededTestSplit(added, ZH_SPLIT_SEED)).toEqual(added.filter((c) => c.split === "test").map((c) => c.id));
  });
});
