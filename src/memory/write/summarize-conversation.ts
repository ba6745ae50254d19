/**
 * @module memory/write/summarize-conversation
 * A conversation becomes memories: parse a plain-text transcript into turns, redact secrets from
 * every turn before any model sees it, let the Llm port extract the user's lasting facts, then save
 * each fact through the ordinary write pipeline (screen, dedupe, conflicts) with the conversation as
 * its source and provenance. Every fact reports its own outcome.
 *
 * Within one invocation's D1 allowance (PLATFORM_LIMITS): a fact is saved only while the invocation
 * has room for a whole save (FACT_SAVE_CALLS); the facts left are answered as `unsaved`, by content,
 * beside the outcomes of those saved, never as an error that would claim nothing was written. A
 * retry of the same conversation finds, in one read, the facts it already stored from this source
 * (same text, same agent) and answers them as saved without writing them again, so it goes on where
 * the last call stopped and never stores a fact twice.
 */
import type { SummarizeInput } from "../contracts";
import { invalidInput, MemoryError } from "../errors";
import { conversationContext } from "../import/conversation-context";
import { awaitsIndex } from "../indexing";
import { LIMITS } from "../limits";
import { contentHash } from "../memory-factory";
import type { ExtractedFact } from "../ports";
import type { MemoryDeps } from "../service-deps";
import { labelWithSpeaker } from "../text/speaker";
import { indexTokens } from "../text/tokenize";
import type { Memory, Scope } from "../types";
import { zoneFor } from "./event-date";
import { factEventTime } from "./fact-time";
import { sourceRef, turnRef } from "./merge";
import { redactSecrets } from "./redact-secrets";
import { type SaveResult, saveMemory } from "./save-memory";
import { assignMessageRoles, parseTranscript, type TranscriptMessage } from "./transcript";
import { attributeTurn } from "./turn-attribution";

export interface FactOutcome {
  /** The fact as stored (redacted); empty when it was quarantined. */
  content: string;
  category: string;
  status: SaveResult["status"];
  id: string | null;
  supersededIds: string[];
  redactions: SaveResult["redactions"];
  reason: string | null;
  /** 1-based number of the message it was extracted from, in the conversation as parsed; null if unknown. */
  turn: number | null;
  /** Stored without a vector yet (embedding model or index unavailable): repair indexes it. */
  indexedLater: boolean;
  /** Messages (1-based) whose facts, saved earlier in this call, this one superseded: a correction. */
  correctsTurns: number[];
}

export interface SummarizeResult {
  source: string;
  messages: number;
  /** Facts the extractor found; those past LIMITS.factsPerTranscriptMax are not saved. */
  extracted: number;
  outcomes: FactOutcome[];
  /**
   * Facts (as they would be stored, secrets redacted) this call had no room to save within the
   * invocation's limits; the same call again saves them, and not the others twice.
   */
  unsaved: string[];
  /** Secrets removed from the transcript before extraction, by kind. */
  redactions: SaveResult["redactions"];
}

function conversationOf(input: SummarizeInput): TranscriptMessage[] {
  const names = { userName: input.user_name, assistantName: input.assistant_name };
  if (input.transcript !== undefined && input.messages !== undefined)
    throw invalidInput("transcript", "give transcript or messages, not both");
  if (input.messages !== undefined) {
    const total = input.messages.reduce((n, m) => n + m.content.length, 0);
    if (total > LIMITS.transcriptMaxChars)
      throw invalidInput("messages", `must hold at most ${LIMITS.transcriptMaxChars} characters in total`);
    return assignMessageRoles(input.messages, names);
  }
  if (input.transcript !== undefined) return parseTranscript(input.transcript, names);
  throw invalidInput("transcript", "give transcript (text) or messages");
}

async function defaultSource(messages: TranscriptMessage[]): Promise<string> {
  const hash = await contentHash(messages.map((m) => `${m.role}: ${m.content}`).join("\n"));
  return `conversation:${hash.slice(0, 16)}`;
}

/** A transcript that names its user keeps who said each fact, as an imported conversation's turns do. */
function factContent(input: SummarizeInput, fact: ExtractedFact): string {
  return input.user_name === undefined ? fact.content : labelWithSpeaker(input.user_name, fact.content);
}

/**
 * D1 statements one fact's save may take beyond its entities (which wait for the Cron job when the
 * invocation has no room for them, sync-entities.ts): the duplicate check, the similar memories,
 * the write batch of a create or a supersede. A create took 7 under PLATFORM_LIMITS=free
 * (test/integration/free-plan-cpu.test.ts); a supersede writes the older rows too.
 */
export const FACT_SAVE_CALLS = 12;

const hasRoomForFact = (deps: MemoryDeps) =>
  (deps.invocation?.callsLeft() ?? Number.POSITIVE_INFINITY) >= FACT_SAVE_CALLS;

/** What this source already holds, by stored text, for the agent the facts would be saved for: one read. */
async function storedFromSource(
  deps: MemoryDeps,
  scope: Scope,
  input: SummarizeInput,
  source: string,
): Promise<Map<string, Memory>> {
  const agentId = input.shared ? null : (scope.agentId ?? null);
  const rows = await deps.repo.list(scope, {
    statuses: ["active", "quarantined"],
    source,
    order: "newest",
    limit: LIMITS.factsPerTranscriptMax * 2,
  });
  return new Map(rows.filter((m) => m.agentId === agentId && m.source === source).map((m) => [m.content, m]));
}

/** A fact this source already stored (an earlier call of the same conversation): answered, not written again. */
function alreadySaved(stored: Memory, category: string, turn: number | null): FactOutcome {
  const quarantined = stored.status === "quarantined";
  return {
    // As for a fact saved now: quarantined text is never handed back to the calling model.
    content: quarantined ? "" : stored.content,
    category,
    status: quarantined ? "quarantined" : "merged",
    id: stored.id,
    supersededIds: [],
    redactions: [],
    reason: quarantined ? "already stored quarantined from this conversation" : "already saved from this conversation",
    turn,
    indexedLater: awaitsIndex(stored),
    correctsTurns: [],
  };
}

async function saveFact(
  deps: MemoryDeps,
  scope: Scope,
  input: SummarizeInput,
  fact: ExtractedFact,
  turn: number | null,
  source: string,
  contextTokens: string | undefined,
  earlier: Memory[],
): Promise<[FactOutcome, Memory | null]> {
  const category = input.category ?? fact.category;
  const content = factContent(input, fact);
  if (content.length > LIMITS.contentMaxChars) {
    const rejected: FactOutcome = {
      content: redactSecrets(content).text.slice(0, 200),
      category,
      status: "rejected",
      id: null,
      supersededIds: [],
      redactions: [],
      reason: `longer than ${LIMITS.contentMaxChars} characters`,
      turn,
      indexedLater: false,
      correctsTurns: [],
    };
    return [rejected, null];
  }
  const r = await saveMemory(
    deps,
    scope,
    {
      content,
      category,
      tags: input.tags,
      priority: fact.priority,
      memory_type: fact.memoryType,
      source,
      shared: input.shared,
      // A model's resolved date, when it had the conversation's; else the rules' reading of the words.
      event_time:
        input.event_time !== undefined && fact.eventTime !== undefined
          ? fact.eventTime
          : factEventTime(fact.content, input.event_time, zoneFor(undefined, deps.settings.timeZone)),
    },
    {
      derivedFrom: turn === null ? [sourceRef(source)] : [sourceRef(source), turnRef(source, turn)],
      contextTokens,
      compareWith: earlier,
    },
  );
  const outcome: FactOutcome = {
    // A quarantined fact reads as instructions to a model (and may be a model's own words): it is kept
    // for a person to review, never handed back to the calling model.
    content: r.status === "quarantined" ? "" : (r.memory?.content ?? redactSecrets(content).text),
    category,
    status: r.status,
    id: r.id,
    supersededIds: r.supersededIds,
    redactions: r.redactions,
    reason: r.reason,
    turn,
    indexedLater: r.memory !== null && awaitsIndex(r.memory),
    correctsTurns: [],
  };
  return [outcome, r.status === "created" || r.status === "superseded" ? r.memory : null];
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
  const facts = await deps.llm.extractFacts(redacted, input.event_time === undefined ? {} : { date: input.event_time });
  const outcomes: FactOutcome[] = [];
  const unsaved: string[] = [];
  const kept = facts.slice(0, LIMITS.factsPerTranscriptMax);
  const stored = kept.length > 0 ? await storedFromSource(deps, scope, input, source) : new Map<string, Memory>();
  // One at a time and in order: a later fact may merge with or supersede an earlier one. A later
  // turn is newer: each fact is compared with every fact saved before it from this conversation,
  // found by the similarity search or not ("I drink oolong every morning" … "I switched to green tea").
  const contexts = factContexts(redacted);
  const earlier: { memory: Memory; turn: number | null }[] = [];
  for (const fact of kept) {
    const turn = attributeTurn(fact, redacted);
    const text = redactSecrets(factContent(input, fact)).text;
    const already = stored.get(text);
    if (already) {
      outcomes.push(alreadySaved(already, input.category ?? fact.category, turn));
      continue;
    }
    if (unsaved.length > 0 || !hasRoomForFact(deps)) {
      unsaved.push(text);
      continue;
    }
    try {
      const context = turn === null ? undefined : contexts[turn - 1];
      const compareWith = earlier.map((e) => e.memory);
      const [outcome, memory] = await saveFact(deps, scope, input, fact, turn, source, context, compareWith);
      const replaced = new Set(outcome.supersededIds);
      outcome.correctsTurns = [
        ...new Set(earlier.flatMap((e) => (replaced.has(e.memory.id) && e.turn !== null ? [e.turn] : []))),
      ];
      for (const e of earlier) if (replaced.has(e.memory.id)) e.memory = { ...e.memory, status: "superseded" };
      if (memory) earlier.push({ memory, turn });
      outcomes.push(outcome);
    } catch (err) {
      // Refused before the statement went out: this fact's write did not happen; the rest wait for a retry.
      if (!(err instanceof MemoryError && err.code === "limit_exceeded")) throw err;
      unsaved.push(text);
    }
  }
  return {
    source,
    messages: conversation.length,
    extracted: facts.length,
    outcomes,
    unsaved,
    redactions: countKinds(cleaned.flatMap((m) => m.redactions)),
  };
}

/**
 * Search context of a fact from message i: the whole message it is a sentence of, and the messages
 * around it (as bulk import gives each turn its neighbours), so "What did you paint?" still finds
 * "Yeah, the lake sunrise last year!" when only that sentence became a memory.
 */
function factContexts(messages: TranscriptMessage[]): string[] {
  const neighbours = conversationContext(messages.map((m) => ({ content: m.content, source: "conversation" })));
  return messages.map((m, i) => `${indexTokens(m.content).join(" ")} ${neighbours[i]}`.trim());
}

function countKinds(found: SaveResult["redactions"]): SaveResult["redactions"] {
  const counts = new Map<string, number>();
  for (const r of found) counts.set(r.kind, (counts.get(r.kind) ?? 0) + r.count);
  return [...counts].map(([kind, count]) => ({ kind, count }));
}
