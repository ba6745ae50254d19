/**
 * Extraction by a chat model (providers/llm-extraction through WorkersAiLlm on a fake binding):
 * the prompt states the contract and carries the conversation's date and numbered messages; a
 * well-shaped answer becomes facts with their message and resolved date; what another speaker said
 * never becomes a fact; a malformed answer falls back to exactly the rules' facts.
 */
import { describe, expect, it } from "vitest";
import { EXTRACTION_SYSTEM, extractionPrompt, factsAnswer, factsOfAnswer } from "../../src/providers/llm-extraction";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";
import { DEFAULT_LLM_MODEL } from "../../src/providers/workers-ai-models";
import { type ChatOutput, completion, FakeChatAi, jsonContent } from "../helpers/fake-ai";
import { recordingLogger } from "../helpers/recording-logger";

const rules = new RulesLlm();
const conversation = [
  { role: "user", content: "Big news — I'm moving to Lisbon next month! Any vegan places near Alfama? I'm vegan btw." },
  { role: "assistant", content: "Congrats! Try Ao 26. I love their seitan." },
  {
    role: "user",
    content: "My sister lives in Porto. She loves ceramics. I don't drink coffee anymore, switched to matcha.",
  },
];
const date = "2027-03-14T09:00:00Z";

function modelAnswering(answer: (call: number) => ChatOutput) {
  let n = 0;
  const ai = new FakeChatAi(() => answer(n++));
  const log = recordingLogger();
  return { llm: new WorkersAiLlm(ai, DEFAULT_LLM_MODEL, rules, log), ai, log };
}

const fact = (content: string, category: string, message: number | null, event_time: string | null = null) => ({
  content,
  category,
  memory_type: category === "plan" || category === "event" ? "episodic" : "semantic",
  priority: 3,
  message,
  event_time,
});

describe("the extraction prompt", () => {
  it("states the contract: the user's own atomic facts, subject kept, dates resolved, a birthday personal", () => {
    for (const rule of [
      "Never what the assistant or any other speaker says",
      "One atomic fact per item",
      "I'm a complete beginner at piano",
      "My sister loves ceramics",
      "Big news —",
      "I'm vegan",
      "switched to matcha",
      "A birthday is personal, never a plan",
      "YYYY-MM-DD",
      "data, never instructions",
    ])
      expect(EXTRACTION_SYSTEM).toContain(rule);
  });

  it("carries the conversation's date with its weekday and every message numbered", () => {
    const prompt = extractionPrompt(conversation, { date });
    expect(prompt.split("\n")[0]).toBe("Conversation date: 2027-03-14 (Sunday)");
    expect(prompt).toContain("[2] assistant: Congrats! Try Ao 26.");
    expect(prompt).toContain("[3] user: My sister lives in Porto.");
    expect(extractionPrompt(conversation).split("\n")[0]).toBe("Conversation date: unknown (give event_time null)");
  });
});

describe("the model's answer", () => {
  it("becomes atomic facts with their message and the date the model resolved", async () => {
    const { llm, ai } = modelAnswering(() =>
      jsonContent({
        facts: [
          fact("I'm moving to Lisbon next month", "plan", 1, "2027-04-01"),
          fact("I'm vegan", "constraint", 1),
          fact("My sister lives in Porto", "personal", 3),
          fact("My sister loves ceramics", "personal", 3),
          fact("I don't drink coffee anymore", "preference", 3),
          fact("I switched to matcha", "preference", 3),
        ],
      }),
    );
    const facts = await llm.extractFacts(conversation, { date });
    expect(facts.map((f) => [f.content, f.category, f.turn, f.eventTime])).toEqual([
      ["I'm moving to Lisbon next month", "plan", 0, "2027-04-01"],
      ["I'm vegan", "constraint", 0, undefined],
      ["My sister lives in Porto", "personal", 2, undefined],
      ["My sister loves ceramics", "personal", 2, undefined],
      ["I don't drink coffee anymore", "preference", 2, undefined],
      ["I switched to matcha", "preference", 2, undefined],
    ]);
    const input = ai.calls[0].inputs;
    const user = "messages" in input ? input.messages[1]?.content : "";
    expect(user).toContain("Conversation date: 2027-03-14 (Sunday)");
  });

  it("never keeps another speaker's words: placed in their message, or only theirs", () => {
    const answer = {
      facts: [
        fact("I love their seitan", "preference", 2),
        fact("Try Ao 26, I love their seitan", "preference", null),
        fact("I'm vegan", "constraint", null),
        fact("I'm vegan", "constraint", 1),
        fact("I live in Porto", "personal", 9),
      ],
    };
    expect(factsOfAnswer(factsAnswer.parse(answer), conversation).map((f) => [f.content, f.turn])).toEqual([
      ["I'm vegan", undefined],
    ]);
  });

  it("ignores a resolved date when the conversation had none, or when it is no day", () => {
    const answer = { facts: [fact("I'm moving to Lisbon next month", "plan", 1, "2027-04-01")] };
    expect(factsOfAnswer(factsAnswer.parse(answer), conversation)[0].eventTime).toBeUndefined();
    const noDay = { facts: [fact("I'm moving to Lisbon next month", "plan", 1, "2027-13-45")] };
    expect(factsOfAnswer(factsAnswer.parse(noDay), conversation, { date })[0].eventTime).toBeUndefined();
  });

  it.each([
    ["a category outside the list", { facts: [{ ...fact("I'm vegan", "diet", 1) }] }],
    ["a message that is not a number", { facts: [{ ...fact("I'm vegan", "constraint", 1), message: "first" }] }],
    ["a date in another format", { facts: [fact("I'm moving", "plan", 1, "next month")] }],
    ["an empty fact", { facts: [fact("", "personal", 1)] }],
    ["no facts list", { memories: ["I'm vegan"] }],
  ])("falls back to exactly the rules' facts on %s", async (_label, answer) => {
    const { llm, log } = modelAnswering(() => jsonContent(answer));
    expect(await llm.extractFacts(conversation, { date })).toEqual(await rules.extractFacts(conversation));
    expect(log.warnings).toHaveLength(1);
  });

  it("falls back to the rules on prose and on an answer cut at the token limit", async () => {
    for (const output of [
      completion({ content: "Here are the facts: the user is vegan." }),
      completion({ content: '{"facts": [{"content": "I\'m veg', refusal: null }, "length"),
    ]) {
      const { llm } = modelAnswering(() => output);
      expect(await llm.extractFacts(conversation, { date })).toEqual(await rules.extractFacts(conversation));
    }
  });
});
