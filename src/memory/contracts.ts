/**
 * @module memory/contracts
 * zod schemas for every memory operation's input and output: the single source of truth for the
 * MCP tool schemas (mcp/tools/*) and the domain service's argument types (via z.infer).
 */
import { z } from "zod";
import { ID_PATTERN, ID_RULE, LIMITS } from "./limits";

export const MEMORY_STATUSES = ["active", "superseded", "deleted", "expired", "quarantined"] as const;
export const MEMORY_TYPES = ["semantic", "episodic"] as const;
export const WRITE_OUTCOMES = ["created", "merged", "superseded", "redacted", "rejected", "quarantined"] as const;

export const memoryId = z.string().regex(ID_PATTERN, ID_RULE).describe("Memory id as returned by save or recall");
const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());
const tag = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.tagMaxChars, `must be at most ${LIMITS.tagMaxChars} characters`);
const tags = z.array(tag).max(LIMITS.tagsMax, `at most ${LIMITS.tagsMax} tags`);
const category = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.categoryMaxChars, `must be at most ${LIMITS.categoryMaxChars} characters`);
const content = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.contentMaxChars, `must be at most ${LIMITS.contentMaxChars} characters`);

export const saveInput = z.object({
  content: content.describe("The fact, preference or event to remember, in the user's own language"),
  category: category.optional().describe("Topic such as personal, preference, work, project, health (default general)"),
  tags: tags.optional().describe("Short labels for filtering"),
  priority: z.number().int().min(1).max(5).optional().describe("1 = core fact about the user … 5 = trivia (default 3)"),
  confidence: z.number().min(0).max(1).optional().describe("How sure the agent is that this is true, 0-1 (default 1)"),
  memory_type: z
    .enum(MEMORY_TYPES)
    .optional()
    .describe("semantic = lasting fact or preference; episodic = something that happened"),
  event_time: isoDate.optional().describe("When the remembered event happened (ISO 8601)"),
  expires_at: isoDate.optional().describe("When this memory stops being true (ISO 8601)"),
  ttl_days: z
    .number()
    .int()
    .min(0)
    .max(LIMITS.ttlDaysMax)
    .optional()
    .describe("Forget after this many days (alternative to expires_at)"),
  source: z
    .string()
    .max(LIMITS.sourceMaxChars)
    .optional()
    .describe("Where this came from: client, conversation or message reference"),
  idempotency_key: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe("Retry key: the same key within 24 h returns the first answer and writes nothing"),
  shared: z
    .boolean()
    .optional()
    .describe("With an agent id: true makes the memory visible to all of the user's agents"),
});
export type SaveInput = z.infer<typeof saveInput>;

export const recallInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(LIMITS.queryMaxChars, `must be at most ${LIMITS.queryMaxChars} characters`)
    .describe("What to remember, in natural language (any language)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.recallLimitMax)
    .optional()
    .describe("Maximum memories to return; setting it bypasses progressive injection"),
  category: category.optional().describe("Only memories of this category"),
  tags: tags.optional().describe("Only memories carrying all of these tags"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("Only semantic or only episodic memories"),
  since: isoDate.optional().describe("Only memories whose event (or creation) time is at or after this"),
  until: isoDate.optional().describe("Only memories whose event (or creation) time is at or before this"),
  include_superseded: z.boolean().optional().describe("Also return memories replaced by newer ones"),
  session_id: z.string().max(128).optional().describe("Conversation id for progressive injection"),
});
export type RecallInput = z.infer<typeof recallInput>;

export const updateInput = z.object({
  id: memoryId,
  content: content.optional().describe("New text; the memory is re-embedded"),
  category: category.optional().describe("New category"),
  tags: tags.optional().describe("New tags (replace the old ones)"),
  priority: z.number().int().min(1).max(5).optional().describe("New priority 1-5"),
  confidence: z.number().min(0).max(1).optional().describe("New confidence 0-1"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("New memory type"),
  event_time: isoDate.optional().describe("New event time (ISO 8601)"),
  expires_at: isoDate.nullable().optional().describe("New expiry (ISO 8601), or null to never expire"),
});
export type UpdateInput = z.infer<typeof updateInput>;

export const deleteInput = z.object({
  id: memoryId.optional(),
  ids: z
    .array(memoryId)
    .min(1)
    .max(LIMITS.idsPerCallMax, `at most ${LIMITS.idsPerCallMax} ids`)
    .optional()
    .describe("Several memory ids"),
});
export type DeleteInput = z.infer<typeof deleteInput>;

export const restoreInput = z.object({ id: memoryId });
export type RestoreInput = z.infer<typeof restoreInput>;

export const listInput = z.object({
  status: z
    .enum([...MEMORY_STATUSES, "all"])
    .optional()
    .describe("Which status to list (default active)"),
  category: category.optional().describe("Only this category"),
  tags: tags.optional().describe("Only memories carrying all of these tags"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("Only this memory type"),
  agent: z.string().max(LIMITS.agentIdMaxChars).optional().describe("Only memories private to this agent"),
  order: z.enum(["newest", "oldest", "priority"]).optional().describe("Sort order (default newest)"),
  limit: z.number().int().min(1).max(LIMITS.listLimitMax).optional().describe("Page size (default 20)"),
  cursor: z.string().max(200).optional().describe("Cursor from the previous page's next_cursor"),
});
export type ListInput = z.infer<typeof listInput>;

export const forgetInput = z.object({
  older_than_days: z
    .number()
    .int()
    .min(0)
    .max(LIMITS.ttlDaysMax)
    .optional()
    .describe("Only memories created more than this many days ago"),
  category: category.optional().describe("Only this category"),
  tags: tags.optional().describe("Only memories carrying all of these tags"),
  max_priority: z
    .number()
    .int()
    .min(1)
    .max(5)
    .optional()
    .describe("Only memories whose priority number is at least this (5 = least important)"),
  source: z
    .string()
    .max(LIMITS.sourceMaxChars)
    .optional()
    .describe("Only memories saved from (or derived from) this source"),
  dry_run: z.boolean().optional().describe("Count and show what would be forgotten without deleting (default false)"),
});
export type ForgetInput = z.infer<typeof forgetInput>;

export const historyInput = z.object({ id: memoryId });
export type HistoryInput = z.infer<typeof historyInput>;

export const statsInput = z.object({
  agent: z.string().max(LIMITS.agentIdMaxChars).optional().describe("Only count memories private to this agent"),
});
export type StatsInput = z.infer<typeof statsInput>;

const transcriptMessage = z.object({
  role: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(32, "must be at most 32 characters")
    .describe("Who spoke: user, assistant or system (用户 / 助手 work too); only the user's turns become memories"),
  content: z
    .string()
    .max(LIMITS.transcriptMaxChars, `must be at most ${LIMITS.transcriptMaxChars} characters`)
    .describe("What was said"),
});

const speakerName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.speakerNameMaxChars, `must be at most ${LIMITS.speakerNameMaxChars} characters`);

export const summarizeInput = z.object({
  transcript: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(LIMITS.transcriptMaxChars, `must be at most ${LIMITS.transcriptMaxChars} characters`)
    .optional()
    .describe(
      "The conversation as text, one turn per line starting with a speaker label (User:, Assistant:, 用户：, 助手：, or names with user_name); text without any label is the user's",
    ),
  messages: z
    .array(transcriptMessage)
    .min(1, "must not be empty")
    .max(LIMITS.transcriptMessagesMax, `at most ${LIMITS.transcriptMessagesMax} messages`)
    .optional()
    .describe("The conversation as messages (instead of transcript)"),
  source: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(LIMITS.sourceMaxChars)
    .optional()
    .describe(
      "Conversation reference kept as each memory's source (default conversation:<hash of the transcript>); forget_memories with it removes them all",
    ),
  category: category
    .optional()
    .describe(
      "Category for every extracted memory (default: the extractor's — preference, personal, plan or constraint)",
    ),
  tags: tags.optional().describe("Tags added to every extracted memory"),
  shared: z
    .boolean()
    .optional()
    .describe("With an agent id: true makes the memories visible to all of the user's agents"),
  event_time: isoDate
    .optional()
    .describe("When the conversation took place (ISO 8601), kept as each memory's event time"),
  user_name: speakerName
    .optional()
    .describe(
      "The user's speaker label when the transcript uses names (e.g. Caroline); other speakers' words are never saved",
    ),
  assistant_name: speakerName
    .optional()
    .describe("The assistant's speaker label when it is not a known one (e.g. Nova)"),
});
export type SummarizeInput = z.infer<typeof summarizeInput>;
