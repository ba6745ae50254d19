import { describe, expect, it } from "vitest";
import { ELLIPSIS, queryExcerpt, splitClauses } from "../../src/memory/text/excerpt";
import { estimateTokens } from "../../src/memory/text/token-estimate";
import { queryTokens } from "../../src/memory/text/tokenize";

const excerpt = (content: string, query: string, max: number) => queryExcerpt(content, queryTokens(query), max);

const NECKLACE =
  "Caroline: Thanks, Melanie! This necklace is super special to me, a gift from my grandma in my home country, Sweden. She gave it to me when I was young, and it stands for love, faith and strength. It's like a reminder of my roots.";

describe("splitClauses", () => {
  it("splits after sentence and clause punctuation, keeping every character", () => {
    const text = "Hi, Mel! I ran a race; it raised money. Done";
    expect(splitClauses(text)).toEqual(["Hi, ", "Mel! ", "I ran a race; ", "it raised money. ", "Done"]);
    expect(splitClauses(NECKLACE).join("")).toBe(NECKLACE);
  });

  it("leaves decimals, times and URLs whole: ASCII punctuation ends a clause only before a space", () => {
    expect(splitClauses("Version 3.5 ships at 10:30, see https://x.y/z.")).toEqual([
      "Version 3.5 ships at 10:30, ",
      "see https://x.y/z.",
    ]);
  });

  it("splits Chinese at full-width punctuation, with no space needed", () => {
    expect(splitClauses("我下个月要搬到深圳了，新公司在南山科技园。每天坐地铁")).toEqual([
      "我下个月要搬到深圳了，",
      "新公司在南山科技园。",
      "每天坐地铁",
    ]);
  });
});

describe("queryExcerpt", () => {
  it("returns a memory that fits unchanged", () => {
    expect(excerpt("Caroline: I love hiking.", "hiking", 20)).toBe("Caroline: I love hiking.");
  });

  it("shows the clauses the query is about, with the speaker label and an ellipsis at each cut", () => {
    const out = excerpt(NECKLACE, "What does Caroline's grandma's necklace stand for?", 24);
    expect(out).toBe(`Caroline: Thanks, Melanie! This necklace is super special to me,${ELLIPSIS}`);
    expect(estimateTokens(out)).toBeLessThanOrEqual(24);
    expect(excerpt(NECKLACE, "Sweden", 20)).toBe(
      `Caroline: ${ELLIPSIS}Sweden. She gave it to me when I was young,${ELLIPSIS}`,
    );
  });

  it("finds a match late in the text and grows towards the following clause on a tie", () => {
    expect(excerpt(NECKLACE, "roots", 16)).toBe(`Caroline: ${ELLIPSIS}It's like a reminder of my roots.`);
    // "Mel! " and "so tired. " both score 0 beside the match: the following one is taken first.
    expect(excerpt("Ann: Thanks, Mel! I ran the race, so tired. Then we ate cake.", "race", 10)).toBe(
      `Ann: ${ELLIPSIS}I ran the race, so tired.${ELLIPSIS}`,
    );
  });

  it("cuts one long clause to the words around its best match", () => {
    const text = `Melanie: ${"we walked and talked for hours along the river and then ".repeat(3)}we finally reached the old lighthouse by the sea and rested there for a while before going home`;
    const out = excerpt(text, "lighthouse", 12);
    expect(out).toContain("lighthouse");
    expect(out.startsWith(`Melanie: ${ELLIPSIS}`)).toBe(true);
    expect(estimateTokens(out)).toBeLessThanOrEqual(12);
  });

  it("shows the beginning when no clause shares a word with the query", () => {
    const out = excerpt(NECKLACE, "quantum chromodynamics", 12);
    expect(out).toBe(`Caroline: Thanks, Melanie!${ELLIPSIS}`);
  });

  it("excerpts Chinese by characters and keeps the full-width speaker label", () => {
    const text = "林雨桐：跟你说个事，我下个月要从广州搬到深圳了，新公司在南山科技园，每天坐地铁上班大概四十分钟。";
    const out = excerpt(text, "新公司在哪里？", 20);
    expect(out).toBe(`林雨桐：${ELLIPSIS}新公司在南山科技园，${ELLIPSIS}`);
    expect(estimateTokens(out)).toBeLessThanOrEqual(20);
  });

  it("stays within the budget whatever the text", () => {
    const texts = [NECKLACE, "a,".repeat(500), "word ".repeat(400), "长".repeat(300), `x${"y".repeat(500)} z`];
    for (const text of texts)
      for (const max of [8, 16, 40])
        expect(estimateTokens(excerpt(text, "word y 长", max)), text.slice(0, 20)).toBeLessThanOrEqual(max);
  });
});
