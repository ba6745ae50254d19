/**
 * @module memory/write/summarize-conversation
 * A conversation becomes memories: parse a plain-text transcript into turns, redact secrets from
 * every turn before any model sees it, let the Llm port extract the user's lasting facts, then save
 * each fact through the ordinary write pipeline (screen, dedupe, conflicts) with the conversation as
 * its source and provenance. Every fact reports its own outcome.
 */
import type { SummarizeInput } from "../contracts";
import { invalidInput } from "../errors";
import { LIMITS } from "../limits";
import { contentHash } from "../memory-factory";
import type { ExtractedFact } from "../ports";
import type { MemoryDeps } from "../service-deps";
import type { Scope } from "../types";
import { sourceRef } from "./merge";
import { redactSecrets } from "./redact-secrets";
import { type SaveResult, saveMemory } from "./save-memory";

export interface TranscriptMessage {
  role: string;
  content: string;
}

export interface FactOutcome {
  content: string;
  category: string;
  status: SaveResult["status"];
  id: string | null;
  supersededIds: string[];
  redactions: SaveResult["redactions"];
  reason: string | null;
}

export interface SummarizeResult {
  source: string;
  messages: number;
  /** Facts the extractor found; those past LIMITS.factsPerTranscriptMax are not saved. */
  extracted: number;
  outcomes: FactOutcome[];
  /** Secrets removed from the transcript before extraction, by kind. */
  redactions: SaveResult["redactions"];
}

const ROLES: Record<string, string> = {
  user: "user",
  human: "user",
  me: "user",
  用户: "user",
  我: "user",
  assistant: "assistant",
  ai: "assistant",
  bot: "assistant",
  model: "assistant",
  助手: "assistant",
  助理: "assistant",
  机器人: "assistant",
  system: "system",
  系统: "system",
  tool: "tool",
  工具: "tool",
};

const TURN =
  /^\s*(user|human|me|assistant|ai|bot|model|system|tool|用户|我|助手|助理|机器人|系统|工具)\s*[:：]\s*(.*)$/i;

/** The canonical role ("user", "assistant", …) for a label in either language; unknown labels stay as given. */
export function normaliseRole(role: string): string {
  const key = role.trim().toLowerCase();
  return ROLES[key] ?? key;
}

/**
 * Turns "User: …\nAssistant: …" (or 用户：/助手：) into messages; a line without a prefix continues
 * the turn above it. Text with no prefix at all is one user message: whoever sends an unlabelled
 * transcript is passing on what the user said.
 */
export function parseTranscript(text: string): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [];
  for (const line of text.split(/\r?\n/)) {
    const turn = TURN.exec(line);
    if (turn) messages.push({ role: normaliseRole(turn[1]), content: turn[2] });
    else if (messages.length > 0) messages[messages.length - 1].content += `\n${line}`;
  }
  if (messages.length === 0) return [{ role: "user", content: text.trim() }];
  return messages.map((m) => ({ role: m.role, content: m.content.trim() })).filter((m) => m.content.length > 0);
}

function conversationOf(input: SummarizeInput): TranscriptMessage[] {
  if (input.transcript !== undefined && input.messages !== undefined)
    throw invalidInput("transcript", "give transcript or messages, not both");
  if (input.messages !== undefined) {
    const total = input.messages.reduce((n, m) => n + m.content.length, 0);
    if (total > LIMITS.transcriptMaxChars)
      throw invalidInput("messages", `must hold at most ${LIMITS.transcriptMaxChars} characters in total`);
    return input.messages
      .map((m) => ({ role: normaliseRole(m.role), content: m.content.trim() }))
      .filter((m) => m.content.length > 0);
  }
  if (input.transcript !== undefined) return parseTranscript(input.transcript);
  throw invalidInput("transcript", "give transcript (text) or messages");
}

async function defaultSource(messages: TranscriptMessage[]): Promise<string> {
  const hash = await contentHash(messages.map((m) => `${m.role}: ${m.content}`).join("\n"));
  return `conversation:${hash.slice(0, 16)}`;
}

async function saveFact(
  deps: MemoryDeps,
  scope: Scope,
  input: SummarizeInput,
  fact: ExtractedFact,
  source: string,
): Promise<FactOutcome> {
  const category = input.category ?? fact.category;
  if (fact.content.length > LIMITS.contentMaxChars) {
    return {
      content: redactSecrets(fact.content).text.slice(0, 200),
      category,
      status: "rejected",
      id: null,
      supersededIds: [],
      redactions: [],
      reason: `longer than ${LIMITS.contentMaxChars} characters`,
    };
  }
  const r = await saveMemory(
    deps,
    scope,
    {
      content: fact.content,
      category,
      tags: input.tags,
      priority: fact.priority,
      memory_type: fact.memoryType,
      source,
      shared: input.shared,
    },
    { derivedFrom: [sourceRef(source)] },
  );
  return {
    content: r.memory?.content ?? redactSecrets(fact.content).text,
    category,
    status: r.status,
    id: r.id,
    supersededIds: r.supersededIds,
    redactions: r.redactions,
    reason: r.reason,
  };
}

export async function summarizeConversation(
  deps: MemoryDeps,
  scope: Scope,
  input: SummarizeInput,
): Promise<SummarizeResult> {
  const conversation = conversationOf(input);
  if (conversation.length === 0) throw invalidInput("transcript", "holds no messages with text");
  // Secrets leave every turn before the transcript reaches a model or the rules.
  const cleaned = conversation.map((m) => ({ role: m.role, ...redactSecrets(m.content) }));
  const redacted = cleaned.map((m) => ({ role: m.role, content: m.text }));
  const source = input.source ?? (await defaultSource(redacted));
  const facts = await deps.llm.extractFacts(redacted);
  const outcomes: FactOutcome[] = [];
  // One at a time and in order: a later fact may merge with or supersede an earlier one.
  for (const fact of facts.slice(0, LIMITS.factsPerTranscriptMax))
    outcomes.push(await saveFact(deps, scope, input, fact, source));
  return {
    source,
    messages: conversation.length,
    extracted: facts.length,
    outcomes,
    redactions: countKinds(cleaned.flatMap((m) => m.redactions)),
  };
}

function countKinds(found: SaveResult["redactions"]): SaveResult["redactions"] {
  const counts = new Map<string, number>();
  for (const r of found) counts.set(r.kind, (counts.get(r.kind) ?? 0) + r.count);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}
