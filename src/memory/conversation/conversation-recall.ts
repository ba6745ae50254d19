/**
 * @module memory/conversation/conversation-recall
 * Recall for a routed chat turn (the memory router, src/router/): the conversation's last user
 * message recalled like recall_memory, shaped by progressive injection per conversation. The first
 * turn brings the strong matches and, beside them, a small profile of core memories; later turns only
 * strong matches not injected before. A memory is never injected twice in one conversation, and
 * abstention holds: a turn with no strong match gets nothing, not even the profile.
 */
import { LIMITS } from "../limits";
import type { MemoryService } from "../memory-service";
import type { ConversationState } from "../ports";
import {
  CORE_LIMIT,
  FIRST_CALL_MATCHES,
  pickFirstCall,
  SECOND_CALL_MATCHES,
  strongMatches,
  withinBudget,
} from "../recall/progressive-injection";
import type { Scope } from "../types";

/** A conversation idle this long is forgotten: a later turn starts it again (profile, and memories shown anew). */
export const CONVERSATION_IDLE_MS = 30 * 24 * 3600_000;
/** Memory ids and message digests one conversation remembers (the newest kept). */
export const CONVERSATION_MAX_ENTRIES = LIMITS.transcriptMessagesMax;

/** What the router shows of a memory: the text and its dates, nothing else. */
export interface RoutedMemory {
  id: string;
  content: string;
  category: string;
  createdAt: number;
  eventTime: number | null;
}

export interface ConversationRecall {
  /** True on the conversation's first recalled turn. */
  first: boolean;
  memories: RoutedMemory[];
}

export interface ConversationRecallInput {
  query: string;
  conversation: string;
  /** Estimated tokens the memories' text may take (ROUTER_MEMORY_TOKENS). */
  budgetTokens: number;
}

export const emptyConversation = (now: number): ConversationState => ({
  turns: 0,
  injected: [],
  saved: [],
  lastAt: now,
});

export async function recallInConversation(
  svc: MemoryService,
  scope: Scope,
  input: ConversationRecallInput,
): Promise<ConversationRecall> {
  const { conversations, clock } = svc.deps;
  const first = (conversations.get(input.conversation)?.turns ?? 0) === 0;
  const query = input.query.slice(-LIMITS.queryMaxChars);
  const [out, coreRows] = await Promise.all([
    svc.recall(scope, { query }, LIMITS.recallLimitMax, { touch: false }),
    first ? svc.core(scope, CORE_LIMIT, { query }) : [],
  ]);
  // Read again after the awaits: another turn of this conversation may have injected meanwhile.
  const now = clock.now();
  const state = conversations.get(input.conversation) ?? emptyConversation(now);
  const seen = new Set(state.injected);
  const fresh = strongMatches(out.results, first ? FIRST_CALL_MATCHES : SECOND_CALL_MATCHES).filter(
    (c) => !seen.has(c.memory.id),
  );
  let picked: typeof fresh = [];
  if (fresh.length > 0) {
    const core = coreRows.filter((m) => !seen.has(m.id)).map((memory) => ({ memory, score: 0 }));
    picked = first ? pickFirstCall(fresh, core, input.budgetTokens) : withinBudget(fresh, input.budgetTokens);
  }
  const ids = picked.map((c) => c.memory.id);
  conversations.put(
    input.conversation,
    {
      ...state,
      turns: state.turns + 1,
      injected: [...state.injected, ...ids].slice(-CONVERSATION_MAX_ENTRIES),
      lastAt: now,
    },
    now - CONVERSATION_IDLE_MS,
  );
  svc.touch(scope, ids);
  return {
    first,
    memories: picked.map(({ memory: m }) => ({
      id: m.id,
      content: m.content,
      category: m.category,
      createdAt: m.createdAt,
      eventTime: m.eventTime,
    })),
  };
}
