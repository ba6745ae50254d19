import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../src/memory/write/transcript";
import { attributeTurn } from "../../src/memory/write/turn-attribution";
import { extractFactsByRules } from "../../src/providers/rules/extract-facts";

const facts = (text: string) => extractFactsByRules(parseTranscript(text));

describe("rule extraction of events, named things and plans", () => {
  it("keeps the move to Lisbon and never the assistant's words", () => {
    const found = facts(
      "User: Hi! I just moved to Lisbon last month for a new job at a fintech startup.\nChatGPT: Noted! I'll remember that.",
    );
    expect(found.map((f) => [f.content, f.category, f.memoryType, f.turn])).toEqual([
      ["I just moved to Lisbon last month for a new job at a fintech startup.", "event", "episodic", 0],
    ]);
  });

  it("keeps each fact of a Chinese day in the park, in the user's words", () => {
    const park = [
      "用户：今天天气特别好，我和女儿去了绿禾公园。",
      "助手：听起来很棒！公园里有什么好看的？",
      "用户：樱花全开了，我们在樱花树下野餐。",
      "助手：真美。还有别的吗？",
      "用户：我们还看到一只松鼠在树上跑来跑去，女儿特别兴奋。",
      "助手：哈哈，松鼠很可爱。",
      "用户：我在草地上读完了《山茶文具店》，这本小说写得很温柔。",
      "助手：这本书讲了什么？",
      "用户：讲一个女孩在镰仓帮人代笔写信的故事。我打算下周再去一次公园。",
      "助手：好的，祝你们玩得开心！",
    ].join("\n");
    const found = facts(park);
    expect(found.map((f) => f.content)).toEqual([
      "今天天气特别好，我和女儿去了绿禾公园。",
      "樱花全开了，我们在樱花树下野餐。",
      "我们还看到一只松鼠在树上跑来跑去，女儿特别兴奋。",
      "我在草地上读完了《山茶文具店》，这本小说写得很温柔。",
      "我打算下周再去一次公园。",
    ]);
    expect(found.map((f) => f.turn)).toEqual([0, 2, 4, 6, 8]);
  });

  it("skips pep talk, praise of the other speaker and bare feelings", () => {
    const text = [
      "User: Wow, that's so cool! I'm so proud of you.",
      "User: Keep going and never give up!",
      "User: I love how you painted that.",
      "User: I'm so glad.",
      "User: Yesterday I took the kids to the museum.",
    ].join("\n");
    expect(facts(text).map((f) => f.content)).toEqual(["Yesterday I took the kids to the museum."]);
  });

  it("keeps English chat that drops its I, and first-person past events", () => {
    expect(
      facts("User: Took a short trip last week to Rome.\nUser: I loved reading Charlotte's Web as a kid.").map(
        (f) => f.category,
      ),
    ).toEqual(["event", "event"]);
  });
});

describe("attributeTurn", () => {
  const messages = [
    { role: "user", content: "I just adopted a beagle named Max." },
    { role: "assistant", content: "A beagle named Max sounds lovely." },
    { role: "user", content: "We are moving to Porto in May." },
  ];

  it("uses the extractor's own turn, 1-based, when it is a user message", () => {
    expect(
      attributeTurn({ content: "x", category: "event", memoryType: "episodic", priority: 3, turn: 2 }, messages),
    ).toBe(3);
  });

  it("finds a paraphrase's user message by shared words, never an assistant message", () => {
    const fact = {
      content: "The user adopted a beagle called Max",
      category: "event",
      memoryType: "episodic" as const,
      priority: 3,
    };
    expect(attributeTurn(fact, messages)).toBe(1);
    expect(attributeTurn({ ...fact, content: "Likes opera" }, messages)).toBeNull();
  });
});
