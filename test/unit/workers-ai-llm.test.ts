/**
 * The Workers AI Llm over fake bindings shaped by each supported model's documented input and output
 * (test/helpers/fake-ai.ts): every task works on every model and answer shape, and every failure mode
 * degrades to exactly the rules' answer, logged without memory text.
 */
import { describe, expect, it } from "vitest";
import type { ConflictCandidate, Llm } from "../../src/memory/ports";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";
import { DEFAULT_LLM_MODEL, LLM_MODELS, type LlmModel } from "../../src/providers/workers-ai-models";
import {
  aiError,
  type ChatBehaviour,
  type ChatOutput,
  completion,
  FakeChatAi,
  hangs,
  jsonContent,
} from "../helpers/fake-ai";
import { recordingLogger } from "../helpers/recording-logger";

const rules = new RulesLlm();
const candidates: ConflictCandidate[] = [
  { handle: 1, content: "I love sushi", category: "preference" },
  { handle: 2, content: "My favorite color is blue", category: "preference" },
];
const transcript = [
  { role: "user", content: "我喜欢喝乌龙茶。我下个月搬到杭州。" },
  { role: "assistant", content: "好的，记住了" },
];
const longZh = "我在上海的一家设计公司工作了五年，负责品牌视觉和包装设计。".repeat(20);

function llmOver(behaviour: ChatBehaviour, model: LlmModel = DEFAULT_LLM_MODEL, timeoutMs = 200) {
  const ai = new FakeChatAi(behaviour);
  const log = recordingLogger();
  const warnings: Record<string, unknown>[] = [];
  log.warn = (message, data) => warnings.push({ message, ...data });
  return { llm: new WorkersAiLlm(ai, model, rules, log, timeoutMs), ai, warnings };
}

/** The four tasks the product asks of the model (consolidation asks decideConflict over a cluster). */
const tasks: { name: string; answer: unknown; run: (llm: Llm) => Promise<unknown>; expected: unknown }[] = [
  {
    name: "extraction",
    answer: {
      facts: [
        { content: "我喜欢喝乌龙茶", category: "preference", memory_type: "semantic", priority: 3 },
        { content: "我下个月搬到杭州", category: "plan", memory_type: "episodic", priority: 2 },
      ],
    },
    run: (llm) => llm.extractFacts(transcript),
    expected: [
      { content: "我喜欢喝乌龙茶", category: "preference", memoryType: "semantic", priority: 3 },
      { content: "我下个月搬到杭州", category: "plan", memoryType: "episodic", priority: 2 },
    ],
  },
  {
    name: "conflict decision",
    answer: { supersedes: [2], duplicate_of: null, reason: "favourite colour changed" },
    run: (llm) => llm.decideConflict("My favorite color is green", candidates),
    expected: { supersedes: [2], duplicateOf: null, reason: "llm: supersedes #2" },
  },
  {
    name: "summary",
    answer: { summary: "在上海设计公司工作五年，负责品牌视觉与包装。" },
    run: (llm) => llm.summarize(longZh, 200),
    expected: "在上海设计公司工作五年，负责品牌视觉与包装。",
  },
  {
    name: "consolidation",
    answer: { supersedes: [], duplicate_of: 1, reason: "same preference" },
    run: (llm) => llm.decideConflict("I really love sushi", candidates),
    expected: { supersedes: [], duplicateOf: 1, reason: "llm: duplicate #1" },
  },
];

/** Each answer shape ChatCompletionsOutput allows for a JSON-mode answer. */
const shapes: { name: string; wrap: (value: unknown) => ChatOutput }[] = [
  { name: "content string", wrap: jsonContent },
  { name: "fenced content", wrap: (v) => completion({ content: `\`\`\`json\n${JSON.stringify(v)}\n\`\`\`` }) },
  { name: "reasoning before the JSON", wrap: (v) => completion({ content: `<think>ok</think>${JSON.stringify(v)}` }) },
  {
    name: "tool call arguments",
    wrap: (v) =>
      completion(
        {
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "answer", arguments: JSON.stringify(v) } }],
        },
        "tool_calls",
      ),
  },
];

describe.each(LLM_MODELS)("WorkersAiLlm on %s", (model) => {
  describe.each(tasks)("$name", (task) => {
    it.each(shapes)("reads the answer from $name", async ({ wrap }) => {
      const { llm, ai } = llmOver(() => wrap(task.answer), model);
      expect(await task.run(llm)).toEqual(task.expected);
      expect(ai.calls).toHaveLength(1);
      expect(ai.calls[0].model).toBe(model);
    });

    const failures: [string, ChatBehaviour][] = [
      ["429 rate limit", aiError("3036: Account limited: you have used up your daily free allocation")],
      ["out of capacity", aiError("3040: Capacity temporarily exceeded, please try again.")],
      ["removed model", aiError("5007: No such model @cf/meta/llama-3.1-8b-instruct or task")],
      ["timeout", hangs],
      ["refusal", () => completion({ content: null, refusal: "I can't help with that." })],
      ["cut at max_tokens", () => completion({ content: '{"facts": [{"content": "我喜欢', refusal: null }, "length")],
      ["prose instead of JSON", () => completion({ content: "Sure! The new memory contradicts #2." })],
      ["JSON of the wrong shape", () => jsonContent({ supersedes: "2", summary: 5, facts: [{ content: "" }] })],
      ["no choices", () => ({ ...completion({}), choices: [] })],
    ];
    it.each(failures)("degrades to the rules' answer on %s", async (label, behaviour) => {
      const { llm, warnings } = llmOver(behaviour, model);
      expect(await task.run(llm)).toEqual(await task.run(rules));
      expect(warnings).toHaveLength(1);
      const logged = JSON.stringify(warnings[0]);
      expect(warnings[0]).toMatchObject({ model, reason: expect.any(String) });
      for (const secret of ["乌龙茶", "sushi", "favorite", "上海", "llama"])
        expect(logged, label).not.toContain(secret);
    });
  });
});

describe("the request each model gets", () => {
  it("is JSON mode with the OpenAI-style json_schema, a token budget and reasoning off", async () => {
    const { llm, ai } = llmOver(() => jsonContent({ summary: "短" }));
    await llm.summarize(longZh, 400);
    await llm.extractFacts(transcript);
    await llm.decideConflict("My favorite color is green", candidates);
    const [summary, facts, conflict] = ai.calls.map((c) => c.inputs);
    for (const input of [summary, facts, conflict]) {
      expect(input.response_format).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
      expect(input.chat_template_kwargs).toEqual({ enable_thinking: false });
      expect(input.temperature).toBe(0);
    }
    const schemaOf = (input: typeof summary) =>
      input.response_format?.type === "json_schema" ? input.response_format.json_schema : undefined;
    expect(schemaOf(conflict)?.name).toBe("conflict_decision");
    expect(Object.keys(schemaOf(conflict)?.schema?.properties as object).sort()).toEqual([
      "duplicate_of",
      "reason",
      "remainders",
      "supersedes",
    ]);
    expect(schemaOf(conflict)?.schema).not.toHaveProperty("$schema");
    // The default 256 tokens cut fact lists and Chinese summaries: both get room.
    expect(summary.max_tokens).toBeGreaterThanOrEqual(2 * 400);
    expect(facts.max_tokens).toBeGreaterThanOrEqual(2048);
    const user = "messages" in conflict ? conflict.messages.find((m) => m.role === "user")?.content : "";
    expect(user).toContain("[1] (preference) I love sushi");
    expect(user).toContain("NEW: My favorite color is green");
  });

  it("keeps a remainder only for a handle it supersedes that was offered", async () => {
    const remainders = [
      { handle: 2, content: "My favorite color was blue" },
      { handle: 1, content: "not superseded" },
      { handle: 9, content: "never offered" },
    ];
    const { llm } = llmOver(() => jsonContent({ supersedes: [2, 9], duplicate_of: null, reason: "x", remainders }));
    expect(await llm.decideConflict("My favorite color is green", candidates)).toEqual({
      supersedes: [2],
      duplicateOf: null,
      reason: "llm: supersedes #2",
      remainders: [{ handle: 2, content: "My favorite color was blue" }],
    });
  });

  it("ignores handles the model was never offered and cuts summaries to maxChars", async () => {
    const made = llmOver(() => jsonContent({ supersedes: [0, 2, 9, -1], duplicate_of: 7, reason: "made up" }));
    expect(await made.llm.decideConflict("My favorite color is green", candidates)).toEqual({
      supersedes: [2],
      duplicateOf: null,
      reason: "llm: supersedes #2",
    });
    expect(await llmOver(() => jsonContent({ summary: "x".repeat(50) })).llm.summarize("long text", 20)).toBe(
      "x".repeat(20),
    );
  });

  it("asks nothing when there are no candidates", async () => {
    const { llm, ai } = llmOver(() => jsonContent({ supersedes: [1], duplicate_of: null, reason: "x" }));
    expect(await llm.decideConflict("I love tea", [])).toEqual({
      supersedes: [],
      duplicateOf: null,
      reason: "llm: no conflict",
    });
    expect(ai.calls).toHaveLength(0);
  });

  it("passes an abort signal so a hung request is cancelled, not only abandoned", async () => {
    const { llm, ai } = llmOver(hangs, DEFAULT_LLM_MODEL, 50);
    expect(await llm.summarize(longZh, 100)).toBe(await rules.summarize(longZh, 100));
    expect(ai.calls[0].options?.signal).toBeInstanceOf(AbortSignal);
  });
});
