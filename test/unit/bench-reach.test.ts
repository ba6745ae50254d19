/**
 * The word-reach bound of bench:recall: missed evidence split by whether it shares a word with the
 * question (speakers' names left out), and R@10 as if every missed memory that shares a word were found.
 */
import { describe, expect, it } from "vitest";
import { addReach, finishReach, newReach, speakerTokens } from "../../scripts/lib/bench-reach";

const memory = (externalId: string, content: string, source = "t") => ({
  externalId,
  content,
  eventTime: null,
  source,
});

// Each in its own conversation, so no memory has a neighbour.
const memories = [
  memory("1", "Caroline: I went to a pottery class yesterday", "s1"),
  memory("2", "Caroline: My sister Ana is a marine biologist", "s2"),
  memory("3", "Melanie: I painted a sunrise by the lake", "s3"),
  memory("4", "Caroline: We adopted a puppy named Oscar", "s4"),
];

describe("word reach", () => {
  it("takes the speakers' names from the memories' labels", () => {
    expect([...speakerTokens(memories)].sort()).toEqual(["carolin", "melani"]);
    expect(speakerTokens([memory("1", "no label here"), memory("2", "Ana: hello")]).size).toBe(1);
  });

  it("splits missed evidence by a shared word, the speaker's name not counting", () => {
    const totals = newReach();
    addReach(
      totals,
      [
        // Hit 1; missed 3 shares "painted"→"paint"; missed 2 shares only the name Caroline.
        { question: "What did Caroline paint?", category: "x", evidence: ["1", "3", "2"], ranked: ["1", "4"] },
        // Nothing found; 4 shares "puppy".
        { question: "What is the puppy called?", category: "y", evidence: ["4"], ranked: [] },
      ],
      memories,
      2,
    );
    const r = finishReach(totals);
    expect(r.overall).toMatchObject({ questions: 2, missedSharing: 2, missedNeighbours: 0, missedNone: 1 });
    expect(r.overall.recall10).toBeCloseTo((1 / 3 + 0) / 2);
    expect(r.overall.wordBound10).toBeCloseTo((2 / 3 + 1) / 2);
    expect(r.byCategory.x).toMatchObject({ questions: 1, missedSharing: 1, missedNone: 1 });
    expect(r.byCategory.y.wordBound10).toBe(1);
  });

  it("counts a word in the turns around a missed memory, within the radius and its conversation", () => {
    const turns = [
      memory("a", "Melanie: What did you paint last week?", "s1"),
      memory("b", "Caroline: Oh, the lake at dawn", "s1"),
      memory("c", "Melanie: lovely", "s1"),
      memory("d", "Caroline: and a heron too", "s1"),
      memory("e", "Caroline: a painting class", "s2"),
    ];
    const ask = (evidence: string[], radius: number) => {
      const totals = newReach();
      addReach(totals, [{ question: "What did Caroline paint?", category: "x", evidence, ranked: [] }], turns, radius);
      return finishReach(totals).overall;
    };
    // b's neighbour a holds "paint"; d is three turns from a; e's conversation is another.
    expect(ask(["b"], 2)).toMatchObject({ missedSharing: 0, missedNeighbours: 1, missedNone: 0, wordBound10: 1 });
    expect(ask(["d"], 2)).toMatchObject({ missedNeighbours: 0, missedNone: 1, wordBound10: 0 });
    expect(ask(["d"], 3)).toMatchObject({ missedNeighbours: 1, wordBound10: 1 });
    expect(ask(["b"], 0)).toMatchObject({ missedNone: 1 });
    expect(ask(["e"], 2)).toMatchObject({ missedSharing: 1, missedNeighbours: 0 });
  });

  it("caps the bound at ten found per question and skips questions without evidence", () => {
    const many = Array.from({ length: 12 }, (_, i) => memory(`m${i}`, `Caroline: a garden story ${i}`));
    const totals = newReach();
    addReach(
      totals,
      [
        { question: "Tell me about the garden", category: "x", evidence: many.map((m) => m.externalId), ranked: [] },
        { question: "nothing", category: "x", evidence: [], ranked: [] },
      ],
      many,
      2,
    );
    const r = finishReach(totals);
    expect(r.overall.questions).toBe(1);
    expect(r.overall.wordBound10).toBeCloseTo(10 / 12);
  });
});
