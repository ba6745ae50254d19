import { describe, expect, it } from "vitest";
import { prng } from "../../scripts/lib/bench-synthetic";
import { classifySentence, myThingIs } from "../../src/providers/rules/extract-facts";

// The pattern myThingIs replaces (recheck's fuzz checker calls it polynomial), kept as its reference.
const OLD = /\bmy\s+[\p{L}' ]{1,30}?\s+(?:is|are|was)\b/u;

/** A seeded generator, so every run tries the same strings. */
const random = prng;

describe('"my … is": the scan answers what the lazy pattern answered', () => {
  it("on 30,000 generated normalised sentences", () => {
    const parts = [
      "my",
      " ",
      "cat",
      "dog's",
      "is",
      "are",
      "was",
      "island",
      "x",
      "é",
      "猫",
      "1",
      ",",
      "amy",
      "abcdefghij",
    ];
    const next = random(5);
    for (let i = 0; i < 30_000; i++) {
      const text = Array.from({ length: Math.floor(next() * 14) }, () => parts[Math.floor(next() * parts.length)])
        .join("")
        .replace(/\s+/g, " ")
        .trim();
      expect([text, myThingIs(text)]).toEqual([text, OLD.test(text)]);
    }
  });

  it.each([
    ["my sister is a nurse", true],
    ["my favourite band's drummer was great", true],
    [`my ${"a".repeat(30)} is`, true],
    [`my ${"a".repeat(31)} is`, false],
    ["my is", false],
    ["my cat isn't here", false],
    ["my 2 cats are", false],
  ])("%j → %s", (text, expected) => {
    expect(myThingIs(text)).toBe(expected);
    expect(OLD.test(text)).toBe(expected);
  });

  it("still files 'my … is' sentences as personal facts", () => {
    expect(classifySentence("My sister is a nurse in Boston.")).toBe("personal");
  });
});

describe("where home is, said without 'I live'", () => {
  it.each([
    ["Home for me is a small flat in Rotterdam.", "personal"],
    ["Lisbon is what I call home now.", "personal"],
    ["Home is where the heart is.", null],
  ])("%s → %s", (sentence, expected) => {
    expect(classifySentence(sentence)).toBe(expected);
  });
});
