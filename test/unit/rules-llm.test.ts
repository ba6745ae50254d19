import { describe, expect, it } from "vitest";
import type { ConflictCandidate } from "../../src/memory/ports";
import { RulesLlm } from "../../src/providers/rules-llm";

const llm = new RulesLlm();
const one = (content: string): ConflictCandidate[] => [{ handle: 1, content, category: "general" }];
const decide = (next: string, old: string) => llm.decideConflict(next, one(old));

describe("RulesLlm.decideConflict: polarity flips", () => {
  it.each([
    ["我现在讨厌英雄联盟了", "我喜欢玩英雄联盟"],
    ["I hate sushi now", "I love sushi"],
    ["I don't like coffee anymore", "I really enjoy coffee"],
    ["I don't play League anymore", "I love playing League"],
    ["I stopped drinking coffee", "I love coffee"],
    ["I can't stand jazz", "I'm into jazz"],
    ["I love cats now", "I dislike cats"],
    ["我不再喜欢猫了", "我爱猫"],
    ["我现在很烦跑步", "我热爱跑步"],
    ["我喜欢吃辣", "我不喜欢吃辣"],
  ])("%j supersedes %j", async (next, old) => {
    const decision = await decide(next, old);
    expect(decision.supersedes).toEqual([1]);
    expect(decision.duplicateOf).toBeNull();
    expect(decision.reason).toContain("polarity-flip");
  });

  it.each([
    ["I had ramen for dinner", "I love sushi"],
    ["I hate cats", "I love dogs"],
    ["I like Italian food", "I hate Chinese food"],
    ["My sister loves cats", "I hate cats"],
    ["昨晚吃了拉面", "我喜欢蓝色"],
    ["我讨厌香菜", "我喜欢喝咖啡"],
    ["我妹妹讨厌猫", "我喜欢猫"],
  ])("%j leaves %j alone", async (next, old) => {
    expect(await decide(next, old)).toEqual({ supersedes: [], duplicateOf: null, reason: "rules: no conflict" });
  });

  it("treats a one-clause restatement of the same stance as a duplicate", async () => {
    expect(await decide("I really love sushi!", "I love sushi")).toMatchObject({ supersedes: [], duplicateOf: 1 });
    expect((await decide("I love sushi and ramen", "I love sushi")).duplicateOf).toBeNull();
  });
});

describe("RulesLlm.decideConflict: single-valued attributes", () => {
  it.each([
    ["My favorite color is green", "My favorite color is blue", "favorite:color"],
    ["我最喜欢的颜色是绿色", "我最喜欢的颜色是蓝色", "favorite:color"],
    ["My name is Nova", "My name is Ada", "name"],
    ["我叫小红", "我的名字是小明", "name"],
    ["My birthday is May 4", "My birthday is June 1", "birthday"],
    ["我的生日是3月5日", "我的生日是3月6日", "birthday"],
    ["My email is nova@new.example", "My email is nova@old.example", "email"],
    ["My phone number is 415 555 0199", "My phone number is 415 555 0132", "phone"],
    ["I moved to Berlin", "I live in Paris", "residence"],
    ["我搬到了上海", "我住在北京", "residence"],
    ["I work for Acme now", "I work at Google", "employer"],
    ["我在字节跳动工作", "我在腾讯工作", "employer"],
    ["My job is nursing", "I work as a teacher", "job"],
  ])("%j supersedes %j (%s)", async (next, old, attribute) => {
    const decision = await decide(next, old);
    expect(decision.supersedes).toEqual([1]);
    expect(decision.reason).toContain(`attribute-changed (${attribute})`);
  });

  it("supersedes when a value ends", async () => {
    expect((await decide("I no longer work at Google", "I work at Google")).reason).toContain(
      "attribute-ended (employer)",
    );
    expect((await decide("我已经不在腾讯工作了", "我在腾讯工作")).supersedes).toEqual([1]);
    expect((await decide("I no longer live in Paris", "I live in Berlin")).supersedes).toEqual([]);
    expect((await decide("I used to work at Google", "I work at Google")).reason).toContain(
      "attribute-ended (employer)",
    );
    expect((await decide("I used to live in Paris", "I live in Paris")).reason).toContain(
      "attribute-ended (residence)",
    );
    expect((await decide("我以前在腾讯工作", "我在腾讯工作")).reason).toContain("attribute-ended (employer)");
    expect((await decide("我以前住在北京", "我住在北京")).reason).toContain("attribute-ended (residence)");
    expect((await decide("I used to live in Paris", "I live in Berlin")).supersedes).toEqual([]);
    expect((await decide("我以前在腾讯工作", "我在字节跳动工作")).supersedes).toEqual([]);
  });

  it.each([
    ["My favourite colour is blue!", "My favorite color is blue", "favorite:color"],
    ["I live in Paris now", "I moved to Paris", "residence"],
    ["我住在北京了", "我住在北京", "residence"],
  ])("same value: %j duplicates %j", async (next, old, attribute) => {
    const decision = await decide(next, old);
    expect(decision).toMatchObject({ supersedes: [], duplicateOf: 1 });
    expect(decision.reason).toContain(`attribute-same (${attribute})`);
  });

  it.each([
    ["My favorite food is pizza", "My favorite color is blue"],
    ["我最喜欢的食物是饺子", "我最喜欢的颜色是蓝色"],
    ["My wife's name is Anna", "My name is Nova"],
    ["I work from home on Fridays", "I work at Google"],
    ["My parents live in Ohio", "I live in Paris"],
  ])("%j leaves %j alone", async (next, old) => {
    expect((await decide(next, old)).supersedes).toEqual([]);
  });

  it("does not merge a longer memory into a shorter one with the same value", async () => {
    expect((await decide("My name is Nova and I love hiking", "My name is Nova")).duplicateOf).toBeNull();
  });
});

describe("RulesLlm.decideConflict: several candidates", () => {
  it("supersedes only the contradicted ones and names each", async () => {
    const candidates: ConflictCandidate[] = [
      { handle: 1, content: "I live in Paris", category: "personal" },
      { handle: 2, content: "I love sushi", category: "preference" },
      { handle: 3, content: "I love croissants", category: "preference" },
    ];
    const decision = await llm.decideConflict("I hate sushi now", candidates);
    expect(decision).toEqual({ supersedes: [2], duplicateOf: null, reason: "rules: polarity-flip #2" });
  });

  it("answers no candidates plainly", async () => {
    expect(await llm.decideConflict("I love sushi", [])).toEqual({
      supersedes: [],
      duplicateOf: null,
      reason: "rules: no candidates",
    });
  });

  it("treats the same text up to case and punctuation as a duplicate", async () => {
    expect(await decide("I had ramen for dinner!", "i had ramen for dinner")).toMatchObject({
      duplicateOf: 1,
      reason: "rules: same-text #1",
    });
  });
});

describe("RulesLlm.summarize", () => {
  it("keeps the leading sentences that fit", async () => {
    expect(await llm.summarize("First sentence here. Second one! Third one? Fourth.", 33)).toBe(
      "First sentence here. Second one!",
    );
    expect(await llm.summarize("这是第一句。这是第二句！这是第三句？", 12)).toBe("这是第一句。这是第二句！");
    expect(await llm.summarize("Line one\nLine two\nLine three", 17)).toBe("Line one\nLine two");
  });

  it("returns short text unchanged and truncates an over-long first sentence", async () => {
    expect(await llm.summarize("  Short.  ", 100)).toBe("Short.");
    const cut = await llm.summarize("A very long first sentence that does not fit at all. Next.", 20);
    expect(cut).toBe("A very long first…");
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(await llm.summarize("我们今天讨论了整个项目的架构设计和部署方案。", 10)).toBe("我们今天讨论了整个…");
  });

  it("does not split decimals or e-mail addresses", async () => {
    expect(await llm.summarize("Version 3.5 is out. My email is a.b@c.de now. More text follows here.", 45)).toBe(
      "Version 3.5 is out. My email is a.b@c.de now.",
    );
  });
});

describe("RulesLlm.extractFacts", () => {
  it("extracts the tea and coffee preferences and the Tokyo plan from a Chinese chat, nothing else", async () => {
    const facts = await llm.extractFacts([
      { role: "user", content: "你好" },
      { role: "assistant", content: "你好！有什么可以帮你？" },
      { role: "user", content: "我喜欢喝乌龙茶，不喜欢咖啡。" },
      { role: "user", content: "我下个月打算去东京旅行" },
      { role: "user", content: "谢谢" },
    ]);
    expect(facts).toEqual([
      { content: "我喜欢喝乌龙茶", category: "preference", memoryType: "semantic", priority: 3, turn: 2 },
      { content: "我不喜欢咖啡", category: "preference", memoryType: "semantic", priority: 3, turn: 2 },
      { content: "我下个月打算去东京旅行", category: "plan", memoryType: "episodic", priority: 3, turn: 3 },
    ]);
  });

  it("classifies English statements and skips chit-chat, questions and requests", async () => {
    const facts = await llm.extractFacts([
      {
        role: "user",
        content: "Hi! I'm Nova. I'm allergic to peanuts. Can you help me? I plan to learn Rust next year.",
      },
      { role: "user", content: "I love hiking. My favorite color is blue. Thanks! I can't wait. I can't eat gluten." },
      {
        role: "user",
        content: "What should I cook tonight? I want you to be brief. I'm not sure. The weather is nice.",
      },
      { role: "assistant", content: "I love that! I'm an assistant." },
      { role: "system", content: "I am the system." },
    ]);
    expect(facts.map((f) => [f.content, f.category, f.priority])).toEqual([
      ["I'm Nova.", "personal", 2],
      ["I'm allergic to peanuts.", "constraint", 2],
      ["I plan to learn Rust next year.", "plan", 3],
      ["I love hiking.", "preference", 3],
      ["My favorite color is blue.", "preference", 3],
      ["I can't eat gluten.", "constraint", 2],
    ]);
  });

  it("classifies Chinese statements", async () => {
    const facts = await llm.extractFacts([
      {
        role: "user",
        content:
          "我叫小明。我住在杭州。我在阿里巴巴工作。我对花生过敏。我不吃猪肉。我更喜欢安静的咖啡馆。我准备明年考研。",
      },
      { role: "user", content: "你知道杭州有什么好吃的吗？我想问一下天气。今天天气不错呢。我女儿叫朵朵。我觉得挺好。" },
    ]);
    expect(facts.map((f) => [f.content, f.category])).toEqual([
      ["我叫小明。", "personal"],
      ["我住在杭州。", "personal"],
      ["我在阿里巴巴工作。", "personal"],
      ["我对花生过敏。", "constraint"],
      ["我不吃猪肉。", "constraint"],
      ["我更喜欢安静的咖啡馆。", "preference"],
      ["我准备明年考研。", "plan"],
      ["我女儿叫朵朵。", "personal"],
    ]);
  });

  it("drops repeats and returns nothing for an assistant-only transcript", async () => {
    expect(await llm.extractFacts([{ role: "user", content: "I love tea. I love tea!" }])).toHaveLength(1);
    expect(await llm.extractFacts([{ role: "assistant", content: "I love tea. 我喜欢茶。" }])).toEqual([]);
  });
});
