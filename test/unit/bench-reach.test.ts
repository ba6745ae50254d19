/**
 * The word-reach bound of bench:recall: missed evidence split by whether it shares a word with the
 * question (speakers' names left out), and R@10 as if every missed memory that shares a word were found.
 */
import { describe, expect, it } from "vitest";
import { addReach, finishReach, newReach, speakerTokens } from "../../scripts/lib/bench-reach";

const memory = (externalId: string, content: string) => ({ externalId, content, eventTime: null, source: "t" });

const memories = [
  memory("1", "Caroline: I went to a pottery class yesterday"),
  memory("2", "Caroline: My sister Ana is a marine biologist"),
  memory("3", "Melanie: I painted a sunrise by the lake"),
  memory("4", "Caroline: We adopted a puppy named Oscar"),
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
    );
    const r = finishReach(totals);
    expect(r.overall).toMatchObject({ questions: 2, missedSharing: 2, missedNone: 1 });
    expect(r.overall.recall10).toBeCloseTo((1 / 3 + 0) / 2);
    expect(r.overall.wordBound10).toBeCloseTo((2 / 3 + 1) / 2);
    expect(r.byCategory.x).toMatchObject({ questions: 1, missedSharing: 1, missedNone: 1 });
    expect(r.byCategory.y.wordBound10).toBe(1);
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
    );
    const r = finishReach(totals);
    expect(r.overall.questions).toBe(1);
    expect(r.overall.wordBound10).toBeCloseTo(10 / 12);
  });
});
