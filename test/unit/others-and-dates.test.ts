/**
 * What a person the speaker knows does, and a thing of theirs on a day, are kept from a conversation;
 * chat about the weather, the listener's day and bare corrections are not.
 */
import { describe, expect, it } from "vitest";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";
import { aboutSomeoneKnown, namesADay } from "../../src/providers/rules/others-and-dates";

const kept = (text: string) => extractFactsByRules([{ role: "user", content: text }]).map((f) => f.content);

describe("others-and-dates", () => {
  it.each([
    "Raj teaches chemistry at a secondary school.",
    "Anna is a vet at an animal clinic.",
    "Kofi does payroll at a hospital.",
    "Maria Lopez works as a midwife in Porto.",
    "陈晨在一所中学教化学。",
    "阿峰是急诊科医生，经常值夜班。",
    "小北自己开了家咖啡馆。",
    "Arjun has football practice on Wednesdays now instead of Mondays.",
    "Mia goes to a Montessori school.",
  ])("keeps what someone they know does: %s", (sentence) => {
    expect(aboutSomeoneKnown(sentence)).toBe(true);
    expect(kept(sentence)).toEqual([sentence]);
  });

  it.each([
    "The weather is nice.",
    "It is a good day.",
    "You are a great listener.",
    "Caroline said hi.",
    "车子很好开。",
    "Tom has a point.",
    "你是做什么的？",
  ])("keeps no person fact from: %s", (sentence) => {
    expect(aboutSomeoneKnown(sentence)).toBe(false);
  });

  it("keeps a thing on a day other than today, never the talk's own today or the listener's day", () => {
    expect(namesADay("The car goes in for its service tomorrow.")).toBe(true);
    expect(namesADay("车子下周五要去做保养。")).toBe(true);
    expect(namesADay("There's a parent-teacher meeting at school at the end of the month.")).toBe(true);
    expect(namesADay("今天天气不错。")).toBe(false);
    expect(namesADay("See you tomorrow!")).toBe(false);
    expect(namesADay("The weather is nice.")).toBe(false);
    expect(kept("The car goes in for its service tomorrow.")).toEqual(["The car goes in for its service tomorrow."]);
  });

  it("a Chinese self-correction keeps what it corrects to, without its marker", () => {
    expect(kept("我每天早上跑步五公里。哦不对，最近不跑了，改成去游泳。")).toEqual([
      "我每天早上跑步五公里。",
      "我最近不跑了，改成去游泳。",
    ]);
    expect(kept("周六改成去学游泳了。")).toEqual(["我周六改成去学游泳了。"]);
    expect(kept("不对，是四千。")).toEqual([]);
  });
});
