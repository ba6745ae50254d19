/**
 * The learned yardstick of bench:turns: features, leave-one-group-out scoring (a group's turns are
 * scored by a model that never saw them), precision at recall and ROC AUC.
 */
import { describe, expect, it } from "vitest";
import {
  type LabelledTurn,
  leaveOneGroupOut,
  precisionAtRecall,
  rocAuc,
  turnFeatures,
} from "../../scripts/lib/turn-classifier";

const turn = (group: string, text: string, label: boolean): LabelledTurn => ({
  group,
  text,
  previous: "",
  position: 0,
  label,
});

describe("turn classifier", () => {
  it("scores ROC AUC and precision at recall from a ranking", () => {
    expect(rocAuc([0.9, 0.8, 0.2, 0.1], [true, true, false, false])).toBe(1);
    expect(rocAuc([0.1, 0.2, 0.8, 0.9], [true, true, false, false])).toBe(0);
    expect(rocAuc([0.5, 0.5], [true, false])).toBe(0.5);
    // Ranked: a(+) b(-) c(+) d(-): recall 0.5 at rank 1 (precision 1), recall 1 at rank 3 (2/3).
    expect(precisionAtRecall([4, 3, 2, 1], [true, false, true, false], [0.5, 1])).toEqual([
      { recall: 0.5, precision: 1 },
      { recall: 1, precision: 2 / 3 },
    ]);
  });

  it("hashes words, bigrams and the turn's shape into features", () => {
    const a = turnFeatures(turn("g", "I adopted a puppy", true));
    const b = turnFeatures(turn("g", "I adopted a puppy?", true));
    expect(a.length).toBe(4 + 3 + 5);
    expect(b).not.toEqual(a);
    expect(a.every((f) => Number.isInteger(f) && f >= 0 && f < 1 << 16)).toBe(true);
  });

  it("learns a signal across groups and scores each group without it", () => {
    const turns: LabelledTurn[] = [];
    for (const g of ["a", "b", "c"])
      for (let i = 0; i < 20; i++) {
        turns.push(turn(g, `I moved to a new city ${i}`, true));
        turns.push(turn(g, `thanks so much ${i}`, false));
      }
    const scores = leaveOneGroupOut(turns, 1);
    expect(
      rocAuc(
        scores,
        turns.map((t) => t.label),
      ),
    ).toBe(1);
    // A group whose only signal appears nowhere else cannot be learned from the others.
    const alone = [...turns, turn("d", "zebra quokka", true), turn("d", "yak okapi", false)];
    const s = leaveOneGroupOut(alone, 1);
    expect(s.at(-2)).toBeCloseTo(s.at(-1)!, 6);
  });
});
