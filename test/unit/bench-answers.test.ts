import { describe, expect, it } from "vitest";
import { answerRate, contentWords, holdsAnswer, normalizeAnswerText } from "../../scripts/lib/bench-answers";

describe("whether the received text holds the answer", () => {
  it("normalises case, width and punctuation", () => {
    expect(normalizeAnswerText(" Kids' books - classics, ＡＢＣ!")).toBe("kids books classics abc");
  });

  it("finds the whole answer as a run of words, not inside a longer word", () => {
    expect(holdsAnswer('- 2023-05-08: "Caroline: I loved \\"Becoming Nicole\\" by Amy"', '"Becoming Nicole"')).toBe(
      true,
    );
    expect(holdsAnswer("I adopted a cat named Oliverio", "Oliver")).toBe(false);
    expect(holdsAnswer("Melanie painted in 2022.", "2022")).toBe(true);
  });

  it("takes a short answer's content words in any order, a long answer only whole", () => {
    expect(contentWords("The sunday before 25 May 2023")).toEqual(["sunday", "before", "25", "may", "2023"]);
    expect(contentWords("a cup with a dog face on it")).toEqual(["cup", "dog", "face"]);
    expect(holdsAnswer("a photo of a cup with a dog face on it", "a cup with a dog face on it")).toBe(true);
    expect(holdsAnswer("the dog face on my cup", "a cup with a dog face on it")).toBe(true);
    expect(holdsAnswer("the dog on my cup", "a cup with a dog face on it")).toBe(false);
    expect(holdsAnswer("on 25 May 2023, the sunday before", "The sunday before 25 May 2023")).toBe(false);
    expect(holdsAnswer("love, faith and strength", "love, faith, and strength")).toBe(true);
  });

  it("finds a Chinese answer inside the text, where words have no spaces", () => {
    expect(holdsAnswer("林雨桐：新公司在南山科技园。", "南山科技园")).toBe(true);
    expect(holdsAnswer("林雨桐：新公司在福田。", "南山科技园")).toBe(false);
  });

  it("rates only questions that have an answer", () => {
    expect(answerRate([{ text: "a red car", answer: "red car" }, { text: "x", answer: "y" }, { text: "z" }])).toBe(0.5);
    expect(answerRate([{ text: "z" }])).toBeNull();
  });
});
