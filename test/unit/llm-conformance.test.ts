/**
 * The Llm conformance suite (test/conformance/llm-suite.ts) over the rules, and over the Workers AI
 * Llm on a fake binding shaped by workers-types: one model that answers each task well, one that
 * answers out of bounds (handles it was never shown, an over-long summary, an impossible priority),
 * which the adapter must keep within the contract.
 */
import type { Logger } from "../../src/memory/ports";
import { RulesLlm } from "../../src/providers/rules-llm";
import { WorkersAiLlm } from "../../src/providers/workers-ai-llm";
import { DEFAULT_LLM_MODEL } from "../../src/providers/workers-ai-models";
import { describeLlm } from "../conformance/llm-suite";
import { type ChatCall, FakeChatAi, jsonContent } from "../helpers/fake-ai";

const quiet: Logger = { warn: () => {}, error: () => {} };

function task(call: ChatCall): string {
  const inputs = call.inputs as { response_format?: { json_schema?: { name?: string } } };
  return inputs.response_format?.json_schema?.name ?? "";
}

const HONEST: Record<string, unknown> = {
  conflict_decision: { supersedes: [1], duplicate_of: null, reason: "same subject, new value" },
  summary: { summary: "Designer in Lisbon, five years." },
  extracted_facts: {
    facts: [{ content: "I drink oolong every morning", category: "preference", memory_type: "semantic", priority: 2 }],
  },
};
const OUT_OF_BOUNDS: Record<string, unknown> = {
  conflict_decision: { supersedes: [1, 7, -3], duplicate_of: 42, reason: "x".repeat(5000) },
  summary: { summary: "s".repeat(10_000) },
  extracted_facts: {
    facts: [
      { content: "My sister Anna lives in Berlin", category: "relationship", memory_type: "semantic", priority: 99 },
    ],
  },
};

const over = (answers: Record<string, unknown>) =>
  new WorkersAiLlm(
    new FakeChatAi((call) => jsonContent(answers[task(call)] ?? {})),
    DEFAULT_LLM_MODEL,
    new RulesLlm(),
    quiet,
  );

describeLlm("RulesLlm", () => new RulesLlm());
describeLlm("WorkersAiLlm (fake binding, answers well)", () => over(HONEST));
describeLlm("WorkersAiLlm (fake binding, answers out of bounds)", () => over(OUT_OF_BOUNDS));
