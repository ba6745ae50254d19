import { describe, expect, it } from "vitest";
import type { ConflictCandidate } from "../../src/memory/ports";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";

type Call = {
  model: string;
  input: {
    messages: { role: string; content: string }[];
    response_format: { type: string; json_schema: Record<string, unknown> };
  };
};

/** A fake AI binding answering every run() with `answer` and recording what it was asked. */
function fakeAi(answer: unknown | ((call: Call) => unknown)) {
  const calls: Call[] = [];
  const ai = {
    run: async (model: string, input: Call["input"]) => {
      const call = { model, input };
      calls.push(call);
      if (answer instanceof Error) throw answer;
      return { response: typeof answer === "function" ? (answer as (c: Call) => unknown)(call) : answer };
    },
  };
  return { llm: new WorkersAiLlm(ai as unknown as Ai, "@cf/meta/llama-3.1-8b-instruct", new RulesLlm()), calls };
}

const candidates: ConflictCandidate[] = [
  { handle: 1, content: "I love sushi", category: "preference" },
  { handle: 2, content: "My favorite color is blue", category: "preference" },
];

describe("WorkersAiLlm.decideConflict", () => {
  it("uses a valid JSON-mode answer and shows the model integer handles only", async () => {
    const { llm, calls } = fakeAi({ supersedes: [2], duplicate_of: null, reason: "favourite colour changed" });
    const decision = await llm.decideConflict("My favorite color is green", candidates);
    expect(decision).toEqual({ supersedes: [2], duplicateOf: null, reason: "llm: favourite colour changed" });
    expect(calls).toHaveLength(1);
    const { input, model } = calls[0];
    expect(model).toBe("@cf/meta/llama-3.1-8b-instruct");
    expect(input.response_format.type).toBe("json_schema");
    expect(Object.keys(input.response_format.json_schema.properties as object).sort()).toEqual([
      "duplicate_of",
      "reason",
      "supersedes",
    ]);
    expect(input.response_format.json_schema).not.toHaveProperty("$schema");
    const user = input.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain("[1] (preference) I love sushi");
    expect(user).toContain("[2] (preference) My favorite color is blue");
    expect(user).toContain("NEW: My favorite color is green");
  });

  it("accepts the answer as a JSON string too", async () => {
    const { llm } = fakeAi(JSON.stringify({ supersedes: [], duplicate_of: 1, reason: "same fact" }));
    expect(await llm.decideConflict("I really love sushi", candidates)).toEqual({
      supersedes: [],
      duplicateOf: 1,
      reason: "llm: same fact",
    });
  });

  it("ignores handles it never offered", async () => {
    const { llm } = fakeAi({ supersedes: [0, 2, 9, -1], duplicate_of: 7, reason: "made up" });
    expect(await llm.decideConflict("My favorite color is green", candidates)).toEqual({
      supersedes: [2],
      duplicateOf: null,
      reason: "llm: made up",
    });
  });

  it.each([
    ["not JSON at all", "Sure! The new memory contradicts #2."],
    ["wrong types", { supersedes: "2", duplicate_of: null, reason: "x" }],
    ["missing fields", { reason: "x" }],
    ["null", null],
  ])("falls back to the rules on a malformed answer (%s)", async (_label, answer) => {
    const { llm } = fakeAi(answer);
    const decision = await llm.decideConflict("My favorite color is green", candidates);
    expect(decision.supersedes).toEqual([2]);
    expect(decision.reason).toMatch(/^rules: attribute-changed \(favorite:color\) #2/);
  });

  it("asks nothing when there are no candidates", async () => {
    const { llm, calls } = fakeAi({ supersedes: [1], duplicate_of: null, reason: "x" });
    expect(await llm.decideConflict("I love tea", [])).toEqual({
      supersedes: [],
      duplicateOf: null,
      reason: "no candidates",
    });
    expect(calls).toHaveLength(0);
  });

  it("turns a provider failure into provider_unavailable", async () => {
    const { llm } = fakeAi(new Error("3040: out of capacity"));
    await expect(llm.decideConflict("x y z", candidates)).rejects.toMatchObject({ code: "provider_unavailable" });
  });
});

describe("WorkersAiLlm.summarize and extractFacts", () => {
  it("cuts a summary to maxChars and falls back to leading sentences on a bad answer", async () => {
    expect(await fakeAi({ summary: "x".repeat(50) }).llm.summarize("long text", 20)).toBe("x".repeat(20));
    const text = "First sentence here. Second sentence is here too. Third one.";
    expect(await fakeAi({ nope: 1 }).llm.summarize(text, 30)).toBe("First sentence here.");
  });

  it("maps extracted facts and falls back to the rules on a bad answer", async () => {
    const messages = [
      { role: "user", content: "我喜欢喝乌龙茶。" },
      { role: "assistant", content: "好的" },
    ];
    const good = fakeAi({
      facts: [{ content: "我喜欢喝乌龙茶", category: "preference", memory_type: "semantic", priority: 3 }],
    });
    expect(await good.llm.extractFacts(messages)).toEqual([
      { content: "我喜欢喝乌龙茶", category: "preference", memoryType: "semantic", priority: 3 },
    ]);
    expect(good.calls[0].input.messages[1].content).toBe("user: 我喜欢喝乌龙茶。\nassistant: 好的");
    const bad = fakeAi({ facts: [{ content: "", category: "hobby" }] });
    expect(await bad.llm.extractFacts(messages)).toEqual([
      { content: "我喜欢喝乌龙茶。", category: "preference", memoryType: "semantic", priority: 3 },
    ]);
  });
});
