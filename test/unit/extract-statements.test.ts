import { describe, expect, it } from "vitest";
import { factEventTime } from "../../src/memory/write/fact-time";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";
import { statementBeforeQuestion, withoutFiller } from "../../src/providers/rules/statement-parts";

const user = (content: string) => [{ role: "user", content }];
const contents = (content: string) => extractFactsByRules(user(content)).map((f) => f.content);

describe("extraction: what of a sentence is a statement", () => {
  it("strips discourse markers and filler around a fact", () => {
    expect(withoutFiller("Oh, and I'm vegan btw")).toBe("I'm vegan");
    expect(withoutFiller("Big news — I moved to Porto!")).toBe("I moved to Porto!");
    expect(withoutFiller("对了，我对花生过敏。")).toBe("我对花生过敏。");
    expect(contents("Oh, and I don't speak Portuguese yet.")).toEqual(["I don't speak Portuguese yet."]);
  });

  it("keeps the statement a question turn makes", () => {
    expect(contents("Any vegan places near Alfama? I'm vegan btw")).toEqual(["I'm vegan"]);
    expect(statementBeforeQuestion("另外我想考级，你觉得什么时候合适？")).toBe("另外我想考级");
    expect(contents("另外我想考级，你觉得什么时候合适？")).toEqual(["我想考级"]);
    expect(contents("有没有适合上班族的快手菜？")).toEqual([]);
  });

  it("keeps Chinese statements whose subject is left out, with their subject, not opinions or requests", () => {
    expect(contents("最近在准备马拉松。家里已经有哑铃了。我不抽烟。")).toEqual([
      "我最近在准备马拉松。",
      "我家里已经有哑铃了。",
      "我不抽烟。",
    ]);
    expect(contents("我觉得挺好。帮我想想送什么礼物。讲一个女孩的故事。")).toEqual([]);
  });

  it("files a birthday as personal, not a plan", () => {
    expect(extractFactsByRules(user("My daughter's birthday is next month.")).map((f) => f.category)).toEqual([
      "personal",
    ]);
  });
});

describe("a fact's event time from the conversation's date", () => {
  // 2027-07-01 is a Thursday.
  it.each([
    ["I'm moving to Porto next month", "2027-08-01"],
    ["Last Friday I met Ana", "2027-06-25"],
    ["I went there yesterday", "2027-06-30"],
    ["我下个月要搬到上海", "2027-08-01"],
    ["上周三我和小周吃了火锅", "2027-06-23"],
    ["我下周去医院", "2027-07-05"],
    ["我明天去杭州", "2027-07-02"],
    ["我每周三晚上上课", "2027-07-01T10:00:00Z"],
    ["I love tea", "2027-07-01T10:00:00Z"],
  ])("%s → %s", (content, expected) => {
    expect(factEventTime(content, "2027-07-01T10:00:00Z")).toBe(expected);
  });

  it("has no time when the conversation has none", () => {
    expect(factEventTime("next month", undefined)).toBeUndefined();
  });
});
