import { describe, expect, it } from "vitest";
import { assessValue } from "../../src/memory/write/value-filter";

describe("assessValue: rejects text with no lasting value", () => {
  it.each([
    "ok",
    "OK.",
    "okay",
    "okkk",
    "thanks",
    "Thanks!",
    "thank you!",
    "Thank you so much!!",
    "thx",
    "got it",
    "sure",
    "lol",
    "hahaha",
    "hi",
    "Hello!",
    "hey there",
    "good morning",
    "Good morning everyone",
    "bye",
    "see you",
    "ok thanks",
    "Thank you for the help!",
    "cool, got it 👍",
    "no problem",
    "I'm fine, thanks",
    "me too",
  ])("English filler %j", (text) => {
    expect(assessValue(text)).toEqual({ keep: false, reason: "filler" });
  });

  it.each([
    "好的",
    "好",
    "嗯",
    "嗯嗯",
    "谢谢",
    "谢谢！",
    "明白了",
    "收到",
    "你好",
    "您好！",
    "哈哈",
    "哈哈哈哈",
    "再见",
    "好的，谢谢",
    "好的好的",
    "我知道了",
    "对对对",
    "OK 好的",
  ])("Chinese filler %j", (text) => {
    expect(assessValue(text)).toEqual({ keep: false, reason: "filler" });
  });

  it("rejects bare punctuation and emoji as no-text", () => {
    for (const text of ["...", "!!!", "？？", "👍", "😂😂😂", "🙏 !"])
      expect(assessValue(text)).toEqual({ keep: false, reason: "no-text" });
  });

  it("rejects empty and one-character text", () => {
    expect(assessValue("   ")).toEqual({ keep: false, reason: "empty" });
    expect(assessValue("a")).toEqual({ keep: false, reason: "too-short" });
    expect(assessValue("猫")).toEqual({ keep: false, reason: "too-short" });
    expect(assessValue("7!")).toEqual({ keep: false, reason: "too-short" });
  });
});

describe("assessValue: keeps short real facts", () => {
  it.each([
    "I'm vegan",
    "Born 1990",
    "我是素食者",
    "I live in Berlin",
    "Allergic to nuts",
    "我叫小明",
    "ok so I moved to Berlin",
    "thanks, my email is nova@example.com",
    "好的，我下周去上海",
    "No sugar",
    "Cat: Mimi",
    "猫叫咪咪",
    "Hi, I'm Nova",
    "I'm so tired of my commute",
    "我明白你的意思是素食",
  ])("%j", (text) => {
    expect(assessValue(text)).toEqual({ keep: true });
  });
});

describe("assessValue: bounded cost", () => {
  it("keeps long text without searching it as filler", () => {
    expect(assessValue("ok ".repeat(3000))).toEqual({ keep: true });
  });
});
