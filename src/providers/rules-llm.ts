/**
 * @module providers/rules-llm
 * The Llm port without a model: deterministic English and Chinese rules for conflict decisions,
 * extractive summaries and fact extraction. It is the offline default (`LLM_PROVIDER=rules`) and
 * the fallback when a model's answer cannot be parsed, so every method must give a safe answer
 * for any input: when unsure, it supersedes nothing and extracts nothing.
 * The rules themselves live in providers/rules/ and are listed in docs/write-rules.md.
 */
import type { ConflictCandidate, ConflictDecision, ExtractedFact, Llm } from "../memory/ports";
import { decideConflictByRules } from "./rules/decide-conflict";
import { extractFactsByRules } from "./rules/extract-facts";
import { summarizeByRules } from "./rules/summarize";

export class RulesLlm implements Llm {
  readonly kind = "rules" as const;

  async decideConflict(newContent: string, candidates: ConflictCandidate[]): Promise<ConflictDecision> {
    if (candidates.length === 0) return { supersedes: [], duplicateOf: null, reason: "rules: no candidates" };
    return decideConflictByRules(newContent, candidates);
  }

  async summarize(content: string, maxChars: number): Promise<string> {
    return summarizeByRules(content, maxChars);
  }

  /** The rules keep relative dates in the fact's words; the write path resolves them (memory/write/fact-time). */
  async extractFacts(messages: { role: string; content: string }[]): Promise<ExtractedFact[]> {
    return extractFactsByRules(messages);
  }
}
