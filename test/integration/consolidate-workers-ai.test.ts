/**
 * Consolidation with the Workers AI Llm (fake binding shaped by the chat model's output type), in the
 * real user Durable Object on D1: it merges with the model's answers, and with the model gone it merges
 * on the rules — never fails.
 */
import { describe, expect, it } from "vitest";
import type { MemoryDeps } from "../../src/memory/service-deps";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";
import { DEFAULT_LLM_MODEL } from "../../src/providers/workers-ai-models";
import { uniqueUser } from "../helpers/api-keys";
import { aiError, type ChatBehaviour, FakeChatAi, jsonContent } from "../helpers/fake-ai";
import { insertMemories, ok, overrideDeps, ownerOf, rowOf, stubOf } from "../helpers/lifecycle";
import { recordingLogger } from "../helpers/test-service";

const T0 = Date.now() - 60_000;
const request = () => ({
  now: Date.now(),
  jobs: ["consolidate" as const],
  budget: { maxMs: 10_000, maxRows: 100 },
  policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
});

async function consolidateWith(behaviour: ChatBehaviour) {
  const owner = ownerOf(uniqueUser("consolidate-ai"));
  const [a, b, cat] = await insertMemories(owner, [
    { content: "I drink green tea every morning", createdAt: T0 },
    { content: "I drink green tea every morning!", createdAt: T0 + 1 },
    { content: "My cat is called Miso", createdAt: T0 + 2 },
  ]);
  const ai = new FakeChatAi(behaviour);
  await overrideDeps(owner, (_d: MemoryDeps) => ({
    llm: new WorkersAiLlm(ai, DEFAULT_LLM_MODEL, new RulesLlm(), recordingLogger()),
  }));
  const report = await ok(stubOf(owner).maintain(owner, request()));
  const statuses = await Promise.all([a, b, cat].map(async (m) => (await rowOf(m.id))?.status));
  return { report, statuses, ai };
}

describe("consolidation with the Workers AI Llm", () => {
  it("merges a duplicate pair with the model's answer, read from choices[0].message.content", async () => {
    const { report, statuses, ai } = await consolidateWith(() =>
      jsonContent({ supersedes: [], duplicate_of: null, reason: "no contradiction" }),
    );
    expect(ai.calls.length).toBeGreaterThan(0);
    expect(ai.calls[0].inputs.response_format).toMatchObject({ json_schema: { name: "conflict_decision" } });
    expect(report.jobs[0]).toMatchObject({ changed: 1, complete: true });
    expect(statuses.filter((s) => s === "superseded")).toHaveLength(1);
    expect(statuses[2]).toBe("active");
  });

  it("still merges on the rules when the model is gone, out of capacity or rate-limited", async () => {
    for (const failure of ["5007: No such model", "3040: Capacity temporarily exceeded", "3036: daily limit"]) {
      const { report, statuses } = await consolidateWith(aiError(failure));
      expect(report.jobs[0], failure).toMatchObject({ changed: 1, complete: true });
      expect(
        statuses.filter((s) => s === "superseded"),
        failure,
      ).toHaveLength(1);
    }
  });
});
