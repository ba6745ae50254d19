/**
 * @module test/unit/query-framing
 * Conversational framing leaves the lexical query; content, dates and names stay.
 */
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/memory/recall/query-analysis";
import { stripFraming } from "../../src/memory/text/query-framing";

const squash = (s: string) => s.replace(/[\s，。？！,?]+/g, " ").trim();

describe("stripFraming", () => {
  it("removes the framing users wrap around a question", () => {
    expect(squash(stripFraming("我曾经和你说过我的腰是什么问题，你还记得吗？"))).toBe("我的腰是什么问题");
    expect(squash(stripFraming("我之前跟你提到过，店里用的咖啡豆是从哪里来的？"))).toBe("店里用的咖啡豆是从哪里来的");
    expect(squash(stripFraming("帮我回忆一下，我在用哪本教材复习？"))).toBe("我在用哪本教材复习");
    expect(squash(stripFraming("我忘了导师对我的开题报告有什么意见，你帮我查一下。"))).toBe(
      "导师对我的开题报告有什么意见",
    );
    expect(squash(stripFraming("应对竞争我们推出了什么新品来着？"))).toBe("应对竞争我们推出了什么新品");
    expect(squash(stripFraming("Do you remember what I told you about my sister?"))).toBe("what about my sister");
    expect(squash(stripFraming("What did I tell you about my mentor?"))).toBe("What about my mentor");
    expect(squash(stripFraming("What do you know about my mentor?"))).toBe("What about my mentor");
  });

  it("keeps what is content: someone else telling, remembering to do something", () => {
    expect(stripFraming("三天前妈妈告诉我外公怎么了")).toBe("三天前妈妈告诉我外公怎么了");
    expect(stripFraming("老师说我游泳有什么问题")).toBe("老师说我游泳有什么问题");
  });

  it("returns the query as typed when nothing but framing is left", () => {
    expect(stripFraming("你还记得吗？")).toBe("你还记得吗？");
  });

  it("takes framing out of the query's tokens, not its time windows", () => {
    const q = analyzeQuery("我之前跟你提到过，上周我去哪里玩了？", Date.UTC(2026, 10, 29));
    for (const framing of ["之前", "提到", "到过"]) expect(q.tokens).not.toContain(framing);
    expect(q.windows).toHaveLength(1);
  });
});
