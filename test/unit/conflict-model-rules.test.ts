/**
 * The model path of the conflict decision: the model is told what a life changes, and a
 * change the offline rules see on positive evidence supersedes even when the model misses it —
 * with the rules' remainder, so only the contradicted clause goes.
 */
import { describe, expect, it } from "vitest";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";
import { DEFAULT_LLM_MODEL } from "../../src/providers/workers-ai-models";
import { FakeChatAi, jsonContent } from "../helpers/fake-ai";
import { recordingLogger } from "../helpers/recording-logger";

function llmAnswering(answer: unknown) {
  const ai = new FakeChatAi(() => jsonContent(answer));
  return { ai, llm: new WorkersAiLlm(ai, DEFAULT_LLM_MODEL, new RulesLlm(), recordingLogger(), 200) };
}

describe("the model's conflict decision and the rules", () => {
  it("a new employer the model misses still supersedes, and the prompt names what a life changes", async () => {
    const { ai, llm } = llmAnswering({ supersedes: [], duplicate_of: null, reason: "unrelated" });
    const d = await llm.decideConflict("I started a new job at Zalando", [
      { handle: 1, content: "I work at Northwind", category: "work" },
      { handle: 2, content: "I like spicy food", category: "food" },
    ]);
    expect(d.supersedes).toEqual([1]);
    expect(d.reason).toBe("llm: no conflict; rules: attribute-changed (employer) #1");
    expect(JSON.stringify(ai.calls[0].inputs)).toContain("a habit switched or stopped");
  });

  it("keeps the rules' remainder for a handle they add", async () => {
    const { llm } = llmAnswering({ supersedes: [], duplicate_of: null, reason: "no" });
    const d = await llm.decideConflict("我搬到杭州了", [
      { handle: 1, content: "我住在北京，每天坐地铁上班", category: "personal" },
    ]);
    expect(d.supersedes).toEqual([1]);
    expect(d.remainders).toEqual([{ handle: 1, content: "我每天坐地铁上班" }]);
  });

  it("leaves the model's own decision alone when the rules add nothing", async () => {
    const { llm } = llmAnswering({ supersedes: [1], duplicate_of: null, reason: "habit changed" });
    const d = await llm.decideConflict("I gave up coffee for tea", [
      { handle: 1, content: "I have an espresso after lunch", category: "habit" },
    ]);
    expect(d).toEqual({ supersedes: [1], duplicateOf: null, reason: "llm: supersedes #1" });
  });

  it("never supersedes what the model calls the duplicate", async () => {
    const { llm } = llmAnswering({ supersedes: [], duplicate_of: 1, reason: "same" });
    const d = await llm.decideConflict("I work at Zalando now", [
      { handle: 1, content: "I work at Northwind", category: "work" },
    ]);
    expect(d).toEqual({ supersedes: [], duplicateOf: 1, reason: "llm: duplicate #1" });
  });
});
