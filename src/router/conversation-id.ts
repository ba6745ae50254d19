/**
 * @module router/conversation-id
 * Which conversation a routed request continues: the client's `X-Conversation-Id` when it sends one,
 * else a digest of its first user message (a chat app resends the whole history each turn, so the
 * first user message names the conversation for as long as the client keeps it in the window).
 */
import { isSafeLabel, LABEL_RULE } from "../memory/limits";
import { contentHash } from "../memory/memory-factory";

export const CONVERSATION_ID_MAX_CHARS = 128;

export type ConversationIdResult = { ok: true; id: string } | { ok: false; rule: string };

/** The header's id when valid, a digest of the first user message otherwise; null header → the digest. */
export async function conversationId(header: string | null, firstUserText: string): Promise<ConversationIdResult> {
  if (header !== null) {
    const id = header.trim();
    if (id === "" || id.length > CONVERSATION_ID_MAX_CHARS)
      return { ok: false, rule: `must be 1-${CONVERSATION_ID_MAX_CHARS} characters` };
    if (!isSafeLabel(id)) return { ok: false, rule: LABEL_RULE };
    return { ok: true, id };
  }
  return { ok: true, id: `first-${(await contentHash(firstUserText)).slice(0, 16)}` };
}

/** The source every memory saved from this conversation carries (forget_memories by source removes them). */
export const routerSource = (conversation: string): string => `router:${conversation}`;

/** The routed conversation a memory was saved from, by its source; null when the memory came another way. */
export function routedConversationOf(source: string | null): string | null {
  return source?.startsWith("router:") ? source.slice("router:".length) : null;
}
