import { describe, expect, it } from "vitest";
import { detectFormat, loadDataset, parseLocomoDate, splitEvidence } from "../../scripts/lib/bench-data";
import { syntheticMemories, syntheticQueries } from "../../scripts/lib/bench-synthetic";
import { chunkLines } from "../../scripts/lib/import-client";

const locomo = [
  {
    sample_id: "conv-1",
    conversation: {
      speaker_a: "Caroline",
      speaker_b: "Melanie",
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_1: [
        { speaker: "Caroline", dia_id: "D1:1", text: "I went to a support group yesterday." },
        { speaker: "Melanie", dia_id: "D1:2", text: "Look at this!", blip_caption: "a photo of a lake at sunrise" },
      ],
      session_2_date_time: "10:02 am on 25 May, 2023",
      session_2: [{ speaker: "Melanie", dia_id: "D2:1", text: "I ran a charity race." }],
    },
    qa: [
      { question: "When did Caroline go to the support group?", answer: "7 May 2023", evidence: ["D1:1"], category: 2 },
      { question: "What did Melanie run?", answer: "charity race", evidence: ["D2:1; D1:2"], category: 4 },
      { question: "What did Caroline adopt?", adversarial_answer: "a dog", evidence: ["D1:1"], category: 5 },
      { question: "Unanswerable", answer: "?", evidence: ["D9:9"], category: 1 },
      { question: "When did Melanie paint?", answer: 2022, evidence: ["D1:2"], category: 2 },
      { question: "Who ran?", evidence: ["D2:1"], category: 4 },
    ],
  },
];

const generic = [
  {
    sample_id: "zh user/1",
    memories: [
      { id: "2024-05-02#1", date: "2024-05-02", text: "林晓：五一去了黄山" },
      { id: "2024-05-02#2", date: "2024-05-02", text: "妈妈：山顶冷吗？" },
    ],
    qa: [{ question: "林晓五一去了哪里？", evidence: ["2024-05-02#1"], answer: "黄山" }],
  },
];

describe("benchmark data formats", () => {
  it("detects LoCoMo and the generic format by shape, and refuses anything else", () => {
    expect(detectFormat(locomo)).toBe("locomo");
    expect(detectFormat(generic)).toBe("generic");
    expect(() => detectFormat({ samples: [] })).toThrow(/unrecognised data/);
    expect(() => detectFormat([{ sample_id: "x", qa: [] }])).toThrow(/generic samples/);
  });

  it("turns LoCoMo turns into 'speaker: text' memories dated by their session", () => {
    const ds = loadDataset(locomo);
    const [sample] = ds.samples;
    expect(sample.memories).toEqual([
      {
        externalId: "D1:1",
        content: "Caroline: I went to a support group yesterday.",
        eventTime: "2023-05-08T13:56:00.000Z",
        source: "conv-1/session_1",
      },
      {
        externalId: "D1:2",
        content: "Melanie: Look at this! [shared an image: a photo of a lake at sunrise]",
        eventTime: "2023-05-08T13:56:00.000Z",
        source: "conv-1/session_1",
      },
      {
        externalId: "D2:1",
        content: "Melanie: I ran a charity race.",
        eventTime: "2023-05-25T10:02:00.000Z",
        source: "conv-1/session_2",
      },
    ]);
    expect(sample.questions.map((q) => [q.category, q.evidence, q.answer])).toEqual([
      ["2", ["D1:1"], "7 May 2023"],
      ["4", ["D2:1", "D1:2"], "charity race"],
      ["2", ["D1:2"], "2022"],
      ["4", ["D2:1"], undefined],
    ]);
    expect(ds.skippedQuestions).toBe(2);
  });

  it("reads the generic format with one conversation per date", () => {
    const ds = loadDataset(generic);
    expect(ds.samples[0].memories[0]).toEqual({
      externalId: "2024-05-02#1",
      content: "林晓：五一去了黄山",
      eventTime: "2024-05-02T00:00:00.000Z",
      source: "zh user/1/2024-05-02",
    });
    expect(ds.samples[0].questions).toEqual([
      { question: "林晓五一去了哪里？", evidence: ["2024-05-02#1"], category: "all", answer: "黄山" },
    ]);
  });

  it("parses LoCoMo session dates and splits malformed evidence leniently", () => {
    expect(parseLocomoDate("12:09 am on 13 October, 2023")).toBe("2023-10-13T00:09:00.000Z");
    expect(parseLocomoDate("8:30 pm on 1 January 2024")).toBe("2024-01-01T20:30:00.000Z");
    expect(parseLocomoDate("someday")).toBeNull();
    expect(splitEvidence(["D8:6; D9:17", "D1:2,D1:2", "bogus"], new Set(["D8:6", "D9:17", "D1:2"]))).toEqual([
      "D8:6",
      "D9:17",
      "D1:2",
    ]);
  });
});

describe("import request chunking", () => {
  const line = (n: number, source: string) => ({
    fileLine: n,
    text: JSON.stringify({ content: `m${n}`, source }),
    source,
  });

  it("keeps requests within the line limit and cuts between conversations", () => {
    const lines = [line(1, "a"), line(2, "a"), line(3, "a"), line(4, "b"), line(5, "b"), line(6, "c")];
    expect(chunkLines(lines, 5).map((c) => c.map((l) => l.fileLine))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const small = chunkLines(lines, 2);
    expect(small.flat().map((l) => l.fileLine)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const c of small) expect(c.length).toBeLessThanOrEqual(2);
  });

  it("respects the byte limit and rejects a line too large for any request", () => {
    const lines = [line(1, "a"), line(2, "b"), line(3, "c")];
    const size = new TextEncoder().encode(lines[0].text).byteLength + 1;
    // Two lines fit, but the cut goes where the source changes in the back half: after line 1.
    expect(chunkLines(lines, 100, size * 2).map((c) => c.map((l) => l.fileLine))).toEqual([[1], [2, 3]]);
    expect(() => chunkLines(lines, 100, 10)).toThrow(/line 1 is \d+ bytes/);
  });
});

describe("synthetic scale data", () => {
  it("is deterministic and its queries point at a memory holding their words", () => {
    const a = syntheticMemories(50);
    expect(syntheticMemories(50).memories).toEqual(a.memories);
    expect(a.memories[0].content).toMatch(/^[A-Z][a-z]+: [a-z ]+\.$/);
    expect(new Set(a.memories.map((m) => m.source)).size).toBe(3);
    for (const q of syntheticQueries(a, 10)) {
      const target = a.memories.find((m) => m.externalId === q.evidence[0])!;
      const words = q.question
        .replace(/^what about /, "")
        .replace(/\?$/, "")
        .split(" ");
      for (const w of words) expect(target.content.split(/[ .]/)).toContain(w);
    }
  });
});
