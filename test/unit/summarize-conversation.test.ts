import { describe, expect, it } from "vitest";
import { normaliseRole, parseTranscript } from "../../src/memory/write/transcript";
import { RulesLlm } from "../../src/providers/rules-llm";

describe("parseTranscript", () => {
  it("reads English and Chinese role prefixes, full- and half-width colons", () => {
    expect(
      parseTranscript("User: I love tea.\nAssistant: Noted!\n用户：我住在杭州。\n助手： 好的\nHuman:I'm Nova\nAI: hi"),
    ).toEqual([
      { role: "user", content: "I love tea." },
      { role: "assistant", content: "Noted!" },
      { role: "user", content: "我住在杭州。" },
      { role: "assistant", content: "好的" },
      { role: "user", content: "I'm Nova" },
      { role: "assistant", content: "hi" },
    ]);
  });

  it("continues a turn on unprefixed lines and drops empty turns", () => {
    expect(
      parseTranscript("user: I have two cats.\nTheir names are Miso and Tofu.\nassistant:\n\nSYSTEM: be nice"),
    ).toEqual([
      { role: "user", content: "I have two cats.\nTheir names are Miso and Tofu." },
      { role: "system", content: "be nice" },
    ]);
  });

  it("treats a transcript without any prefix as one user message", () => {
    expect(parseTranscript("  I'm allergic to peanuts.\nI live in Lisbon.  ")).toEqual([
      { role: "user", content: "I'm allergic to peanuts.\nI live in Lisbon." },
    ]);
  });

  it("normalises role labels in both languages", () => {
    expect(
      ["User", "human", "用户", "我", "Assistant", "助手", "bot", "System", "系统", "tool", "narrator"].map(
        normaliseRole,
      ),
    ).toEqual([
      "user",
      "user",
      "user",
      "user",
      "assistant",
      "assistant",
      "assistant",
      "system",
      "system",
      "tool",
      "narrator",
    ]);
  });

  it("only the user's turns become facts (rules extractor on a parsed transcript)", async () => {
    const messages = parseTranscript(
      "用户：你好\n助手：我喜欢帮助你。\n用户：我喜欢喝乌龙茶。我明年打算去冰岛。\n助手：我对花生过敏。\n用户：谢谢",
    );
    const facts = await new RulesLlm().extractFacts(messages);
    expect(facts.map((f) => [f.content, f.category])).toEqual([
      ["我喜欢喝乌龙茶。", "preference"],
      ["我明年打算去冰岛。", "plan"],
    ]);
  });
});
