/**
 * @module test/unit/idioms
 * Idioms read as what they mean, for recall's search and coverage: work for "earn a living", the
 * weekend for "Saturdays and Sundays" and 「周六日」; other words untouched.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/memory/recall/query-analysis";
import { readIdioms } from "../../src/memory/text/idioms";
import { queryTokens } from "../../src/memory/text/tokenize";

describe("idioms", () => {
  it.each([
    ["What do I do for a living?", "work"],
    ["How does Tom earn a living?", "work"],
    ["She makes a living as a nurse", "work"],
    ["What do I enjoy doing on Saturdays and Sundays?", "weekend"],
    ["on Saturday or Sunday", "weekend"],
    ["我周六日一般干嘛？", "周末"],
    ["双休日我喜欢做什么", "周末"],
  ])("%s means %s", (text, meaning) => {
    expect(readIdioms(text)).toContain(` ${meaning} `);
  });

  it.each(["I live in Lisbon", "Saturday was great, Sunday too", "我周六去爬山", "I earned my degree"])(
    "leaves %s as it is",
    (text) => {
      expect(readIdioms(text)).toBe(text);
    },
  );

  it("searches the meaning beside the words", () => {
    const tokens = analyzeQuery("What do I enjoy doing on Saturdays and Sundays?", 0).tokens;
    expect(tokens).toEqual(expect.arrayContaining([...queryTokens("weekend"), ...queryTokens("Saturdays Sundays")]));
    expect(analyzeQuery("Where do I live?", 0).tokens).toEqual(queryTokens("live"));
  });
});
