/**
 * @module memory/conversation/conversation-save
 * Saving after a routed chat turn (the memory router, src/router/): the user messages this
 * conversation has not saved yet go through summarize_conversation's pipeline with the source
 * `router:<conversation>` (so forget_memories by source removes them). Every saved message leaves a
 * digest in the conversation's state, written before the pipeline runs, so a history the client
 * sends again (a retry, a regenerated answer, the next turn) is never saved twice; an edited message
 * is new and is saved. The assistant's words are never passed in.
 */
import { LIMITS } from "../limits";
import { contentHash } from "../memory-factory";
import type { MemoryService } from "../memory-service";
import type { Scope } from "../types";
import type { SummarizeResult } from "../write/summarize-conversation";
import { CONVERSATION_IDLE_MS, CONVERSATION_MAX_ENTRIES, emptyConversation } from "./conversation-recall";

export interface ConversationSaveInput {
  conversation: string;
  /** Every user message of the request, oldest first, as text. */
  userMessages: string[];
  source: string;
}

export interface ConversationSave {
  /** User messages passed to the pipeline (0: all of them were saved before). */
  saved: number;
  result: SummarizeResult | null;
}

/** The newest messages that fit the summarize pipeline's limits (count and total characters). */
export function withinTranscriptLimits(messages: string[]): string[] {
  const kept: string[] = [];
  let total = 0;
  for (let i = messages.length - 1; i >= 0 && kept.length < LIMITS.transcriptMessagesMax; i--) {
    const text = messages[i].slice(0, LIMITS.transcriptMaxChars - total);
    if (text.trim() === "") break;
    kept.unshift(text);
    total += text.length;
  }
  return kept;
}

export async function saveConversationTurns(
  svc: MemoryService,
  scope: Scope,
  input: ConversationSaveInput,
): Promise<ConversationSave> {
  const digests = await Promise.all(input.userMessages.map(async (m) => (await contentHash(m)).slice(0, 16)));
  const { conversations, clock } = svc.deps;
  const now = clock.now();
  const state = conversations.get(input.conversation) ?? emptyConversation(now);
  const saved = new Set(state.saved);
  const unsaved = input.userMessages.filter((m, i) => !saved.has(digests[i]) && m.trim() !== "");
  const newDigests = [...new Set(digests.filter((d) => !saved.has(d)))];
  conversations.put(
    input.conversation,
    { ...state, saved: [...state.saved, ...newDigests].slice(-CONVERSATION_MAX_ENTRIES), lastAt: now },
    now - CONVERSATION_IDLE_MS,
  );
  const messages = withinTranscriptLimits(unsaved);
  if (messages.length === 0) return { saved: 0, result: null };
  const result = await svc.summarize(scope, {
    messages: messages.map((content) => ({ role: "user", content })),
    source: input.source,
  });
  return { saved: messages.length, result };
}
