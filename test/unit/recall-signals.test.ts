import { describe, expect, it } from "vitest";
import { conversationContext } from "../../src/memory/import/conversation-context";
import { buildMemory } from "../../src/memory/memory-factory";
import { fuseScores, maxIdf, namesSpeaker, queryBoost, relevance } from "../../src/memory/recall/fuse-scores";
import { analyzeQuery } from "../../src/memory/recall/query-analysis";
import { RETRIEVAL_WEIGHTS as W } from "../../src/memory/retrieval-weights";
import { queryNamesSpeaker, queryWords, splitSpeaker, turnBody } from "../../src/memory/text/speaker";
import type { Memory } from "../../src/memory/types";
import { CommonTerms } from "../../src/storage/lexical/fts-common-terms";
import { decodeRowCount } from "../../src/storage/lexical/fts5-row-count";

const NOW = Date.UTC(2026, 10, 29, 12);
const scope = { accountId: "a", namespace: "user", userId: "u", actor: "t" };
function mem(id: string, content: string, extra: Partial<Memory> = {}): Memory {
  return { ...buildMemory(scope, id, "h", NOW - 86_400_000, { content, agentId: null }), ...extra };
}

describe("speaker turns", () => {
  it("splits 'Name: text' turns in Latin and Chinese, and leaves other text alone", () => {
    expect(splitSpeaker("Caroline: I went to a support group")).toEqual({
      speaker: "Caroline",
      body: "I went to a support group",
    });
    expect(splitSpeaker("Mary Ann: hi there")).toEqual({ speaker: "Mary Ann", body: "hi there" });
    expect(splitSpeaker("林晓：今天正式入职")).toEqual({ speaker: "林晓", body: "今天正式入职" });
    expect(splitSpeaker("user: hello")).toEqual({ speaker: "user", body: "hello" });
    for (const text of ["https://example.com/a", "10:30 standup", "I said: hi", "Caroline:", "Prefers TypeScript"])
      expect(splitSpeaker(text)).toBeNull();
    expect(turnBody("Melanie: I painted a lake")).toBe("I painted a lake");
    expect(turnBody("no label here")).toBe("no label here");
  });

  it("knows when a query names the speaker", () => {
    const q = "When did Caroline go to the support group?";
    expect(queryNamesSpeaker("Caroline", q, queryWords(q))).toBe(true);
    expect(queryNamesSpeaker("Caroline Smith", q, queryWords(q))).toBe(true);
    expect(queryNamesSpeaker("Carol", q, queryWords(q))).toBe(false);
    expect(queryNamesSpeaker("林晓", "林晓在哪家公司工作", queryWords("林晓在哪家公司工作"))).toBe(true);
    expect(queryNamesSpeaker("小周", "林晓在哪家公司工作", queryWords("林晓在哪家公司工作"))).toBe(false);
  });
});

describe("neighbour context of imported conversations", () => {
  it("indexes up to two turns either side within one unbroken source, without speaker names", () => {
    const lines = [
      { content: "Caroline: support group", source: "s1" },
      { content: "Melanie: inspiring stories", source: "s1" },
      { content: "Caroline: transgender journey", source: "s1" },
      { content: "Melanie: lake painting", source: "s1" },
      { content: "Melanie: charity race", source: "s2" },
      { content: "Loose note about guitars", source: null },
    ];
    const ctx = conversationContext(lines);
    expect(ctx[0]).toBe("inspir stori transgend journei");
    expect(ctx[3]).toBe("inspir stori transgend journei");
    expect(ctx[2]).not.toMatch(/carolin|melani/);
    expect(ctx[4]).toBe("");
    expect(ctx[5]).toBe("");
    expect(
      conversationContext([
        { content: "a x", source: "s" },
        { content: "b y", source: "t" },
        { content: "c z", source: "s" },
      ]),
    ).toEqual(["", "", ""]);
  });
});

describe("fusion signals", () => {
  const ctx = (corpusSize: number, query?: string) => ({
    embedderKind: "local",
    corpusSize,
    now: NOW,
    query: query ? analyzeQuery(query, NOW) : undefined,
  });

  it("scales BM25 by the idf of a word found once, so the floor means the same at any corpus size", () => {
    expect(maxIdf(4124)).toBeCloseTo(Math.log(4124.5 / 1.5));
    // One matched word seen in a single row clears the floor in a small and in a large corpus.
    expect(relevance({ bm25: maxIdf(50), cosine: 0 }, ctx(50))).not.toBeNull();
    expect(relevance({ bm25: maxIdf(100_000), cosine: 0 }, ctx(100_000))).not.toBeNull();
    // A common word (a third of the lexical floor's worth) does not.
    expect(relevance({ bm25: (W.lexicalFloor / 3) * maxIdf(4124), cosine: 0.1 }, ctx(4124))).toBeNull();
    expect(relevance({ bm25: 0, cosine: 0.6 }, ctx(4124))).not.toBeNull();
  });

  it("asks less lexical evidence of a memory spoken by the person the query names, but some", () => {
    const weak = { bm25: W.lexicalFloor * W.namedSpeakerFloor * maxIdf(4124), cosine: 0 };
    expect(relevance(weak, ctx(4124))).toBeNull();
    expect(relevance(weak, ctx(4124), true)).not.toBeNull();
    expect(relevance({ bm25: 0, cosine: 0.1 }, ctx(4124), true)).toBeNull();
    const q = analyzeQuery("王芳的未婚夫是做什么的？", NOW);
    expect(namesSpeaker(mem("w", "王芳：和男朋友张伟订婚了"), q)).toBe(true);
    expect(namesSpeaker(mem("m", "妈妈：什么时候办婚礼？"), q)).toBe(false);
  });

  it("ranks lexical evidence monotonically and saturates below 1", () => {
    const scores = [1, 3, 9, 27].map((b) => relevance({ bm25: b, cosine: 0 }, ctx(4124))!);
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    expect(scores[3]).toBeLessThan(1);
  });

  it("boosts turns spoken by the person the query names, and memories inside the named time", () => {
    const q = analyzeQuery("What did Caroline do in May 2023?", NOW);
    const inMay = Date.UTC(2023, 4, 20);
    expect(queryBoost(mem("a", "Caroline: I ran a race", { eventTime: inMay }), q)).toBeCloseTo(
      W.speakerBoost * W.timeBoost,
    );
    expect(queryBoost(mem("b", "Melanie: I ran a race", { eventTime: inMay }), q)).toBeCloseTo(W.timeBoost);
    expect(queryBoost(mem("c", "Caroline: I ran a race", { eventTime: Date.UTC(2023, 8, 1) }), q)).toBeCloseTo(
      W.speakerBoost,
    );
    expect(queryBoost(mem("d", "ran a race"), undefined)).toBe(1);
  });

  it("lets a boost reorder relevant memories but never admit one below the floors", () => {
    const rows = [
      mem("melanie", "Melanie: I painted a sunrise"),
      mem("caroline", "Caroline: I painted a sunrise"),
      mem("noise", "Caroline: hello"),
    ];
    const evidence = new Map([
      ["melanie", { bm25: 8, cosine: 0 }],
      ["caroline", { bm25: 8, cosine: 0 }],
      ["noise", { bm25: 0.5, cosine: 0.1 }],
    ]);
    const out = fuseScores(rows, evidence, ctx(4124, "What did Caroline paint?"));
    expect(out.map((c) => c.memory.id)).toEqual(["caroline", "melanie"]);
  });
});

describe("FTS5 row count", () => {
  it("decodes the averages record's leading SQLite varint", () => {
    expect(decodeRowCount(Uint8Array.from([0x05, 0x10]).buffer)).toBe(5);
    expect(decodeRowCount([0xce, 0x10, 0x8a, 0xa5, 0x2a])).toBe(10_000);
    expect(decodeRowCount([0x86, 0x8d, 0x20])).toBe(100_000);
    expect(decodeRowCount([])).toBeNull();
  });
});

describe("CommonTerms", () => {
  it("remembers counted terms for a while and drops the oldest beyond its size", () => {
    const terms = new CommonTerms(1000, 2);
    expect(terms.needsCount("kid", 0)).toBe(true);
    terms.record("kid", true, 0);
    terms.record("kayak", false, 0);
    expect([terms.isCommon("kid", 10), terms.isCommon("kayak", 10), terms.needsCount("kid", 10)]).toEqual([
      true,
      false,
      false,
    ]);
    expect([terms.isCommon("kid", 1000), terms.needsCount("kid", 1000)]).toEqual([false, true]);
    terms.record("lake", false, 5);
    expect(terms.needsCount("kid", 10)).toBe(true);
    expect(terms.needsCount("kayak", 10)).toBe(false);
  });
});
