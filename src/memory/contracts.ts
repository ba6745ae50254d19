/**
 * @module memory/contracts
 * zod schemas for every memory operation's input and output: the single source of truth for the
 * MCP tool schemas (mcp/tools/*) and the domain service's argument types (via z.infer).
 */
import { z } from "zod";
import { ID_PATTERN, ID_RULE, isSafeLabel, LABEL_RULE, LIMITS } from "./limits";
import { isTimeZone } from "./text/relative-dates";

export const MEMORY_STATUSES = ["active", "superseded", "deleted", "expired", "quarantined"] as const;
export const MEMORY_TYPES = ["semantic", "episodic"] as const;
export const WRITE_OUTCOMES = ["created", "merged", "superseded", "redacted", "rejected", "quarantined"] as const;

export const memoryId = z.string().regex(ID_PATTERN, ID_RULE).describe("Memory id");
const strictIsoDate = z.iso.datetime({ offset: true }).or(z.iso.date());
/**
 * An ISO 8601 date or date-time, checked by zod's own ISO rules but listed as a short string: the
 * rules' regular expressions are ~400 characters per field in every tools/list.
 */
const isoDate = z
  .string()
  .max(40, "must be at most 40 characters")
  .refine(
    (v) => strictIsoDate.safeParse(v).success,
    "must be an ISO 8601 date (2026-05-02) or date-time with offset (2026-05-02T14:30:00Z)",
  );
/** The person's IANA time zone, for relative dates in the text ("tomorrow" is that zone's tomorrow). */
const timeZone = z
  .string()
  .max(64, "must be at most 64 characters")
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin or Asia/Shanghai");
const tag = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.tagMaxChars, `must be at most ${LIMITS.tagMaxChars} characters`)
  .refine(isSafeLabel, LABEL_RULE);
const tags = z.array(tag).max(LIMITS.tagsMax, `at most ${LIMITS.tagsMax} tags`);
const category = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.categoryMaxChars, `must be at most ${LIMITS.categoryMaxChars} characters`)
  .refine(isSafeLabel, LABEL_RULE);
/** Where a memory came from: one printable line. */
export const sourceText = z
  .string()
  .max(LIMITS.sourceMaxChars, `must be at most ${LIMITS.sourceMaxChars} characters`)
  .refine(isSafeLabel, LABEL_RULE);
const content = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(LIMITS.contentMaxChars, `must be at most ${LIMITS.contentMaxChars} characters`);

export const saveInput = z.object({
  content: content.describe("One fact"),
  category: category.optional().describe("Topic"),
  tags: tags.optional().describe("Labels"),
  priority: z.number().int().min(1).max(5).optional().describe("1 core … 5 trivia (default 3)"),
  confidence: z.number().min(0).max(1).optional().describe("Certainty (default 1)"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("Lasting fact or event"),
  event_time: isoDate.optional().describe("When it happened (ISO 8601)"),
  expires_at: isoDate.optional().describe("Expiry (ISO 8601)"),
  ttl_days: z.number().int().min(0).max(LIMITS.ttlDaysMax).optional().describe("Forget after N days"),
  source: sourceText.optional().describe("Origin"),
  idempotency_key: z.string().min(1).max(128).optional().describe("Retry key (24 h)"),
  shared: z.boolean().optional().describe("For all agents"),
});
export type SaveInput = z.infer<typeof saveInput>;

export const recallInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(LIMITS.queryMaxChars, `must be at most ${LIMITS.queryMaxChars} characters`)
    .describe("What to recall"),
  limit: z.number().int().min(1).max(LIMITS.recallLimitMax).optional().describe("Max results"),
  category: category.optional().describe("Only this category"),
  tags: tags.optional().describe("Has all these tags"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("Only this type"),
  since: isoDate.optional().describe("From (ISO 8601)"),
  until: isoDate.optional().describe("Until (ISO 8601)"),
  include_superseded: z.boolean().optional().describe("With replaced"),
  session_id: z.string().max(128).optional().describe("Conversation id"),
});
export type RecallInput = z.infer<typeof recallInput>;

export const updateInput = z.object({
  id: memoryId,
  content: content.optional().describe("New text"),
  category: category.optional().describe("New category"),
  tags: tags.optional().describe("New tags"),
  priority: z.number().int().min(1).max(5).optional().describe("New priority"),
  confidence: z.number().min(0).max(1).optional().describe("New certainty"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("New type"),
  event_time: isoDate.optional().describe("New event time"),
  expires_at: isoDate.nullable().optional().describe("New expiry, null = never"),
});
export type UpdateInput = z.infer<typeof updateInput>;

/**
 * An edit from the dashboard: update_memory's fields and the reader's time zone, in which new
 * relative words in the text are read (write/event-date.ts). The MCP tools take no zone: tools/list
 * has no bytes left for one (test/e2e/tool-schemas.test.ts), so they read in TIME_ZONE.
 */
export const editInput = updateInput.extend({
  time_zone: timeZone.optional().describe("IANA time zone relative dates in the new text are read in"),
});
export type EditInput = z.infer<typeof editInput>;

export const deleteInput = z.object({
  id: memoryId.optional(),
  ids: z
    .array(memoryId)
    .min(1)
    .max(LIMITS.idsPerCallMax, `at most ${LIMITS.idsPerCallMax} ids`)
    .optional()
    .describe("Several ids"),
});
export type DeleteInput = z.infer<typeof deleteInput>;

export const restoreInput = z.object({ id: memoryId });
export type RestoreInput = z.infer<typeof restoreInput>;

export const listInput = z.object({
  status: z
    .enum([...MEMORY_STATUSES, "all"])
    .optional()
    .describe("Default active"),
  category: category.optional().describe("Only this category"),
  tags: tags.optional().describe("Has all these tags"),
  memory_type: z.enum(MEMORY_TYPES).optional().describe("Only this type"),
  agent: z.string().normalize("NFC").max(LIMITS.agentIdMaxChars).optional().describe("Only this agent's own"),
  order: z.enum(["newest", "oldest", "priority"]).optional().describe("Default newest"),
  limit: z.number().int().min(1).max(LIMITS.listLimitMax).optional().describe("Default 20"),
  cursor: z.string().max(200).optional().describe("next_cursor"),
});
export type ListInput = z.infer<typeof listInput>;

export const forgetInput = z.object({
  older_than_days: z.number().int().min(0).max(LIMITS.ttlDaysMax).optional().describe("Older than N days"),
  category: category.optional().describe("Only this category"),
  tags: tags.optional().describe("Has all these tags"),
  max_priority: z.number().int().min(1).max(5).optional().describe("Priority number ≥ this"),
  source: sourceText.optional().describe("Only this source"),
  dry_run: z.boolean().optional().describe("Preview only"),
});
export type ForgetInput = z.infer<typeof forgetInput>;

export const historyInput = z.object({ id: memoryId });
export type HistoryInput = z.infer<typeof historyInput>;

export const statsInput = z.object({
  agent: z.string().normalize("NFC").max(LIMITS.agentIdMaxChars).optional().describe("Only this agent's own"),
});
export type StatsInput = z.infer<typeof statsInput>;

const transcriptMessage = z.object({
  role: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(32, "must be at most 32 characters")
    .describe("user, assistant or system"),
  content: z
    .string()
    .max(LIMITS.transcriptMaxChars, `must be at most ${LIMITS.transcriptMaxChars} characters`)
    .describe("Text"),
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
    .describe("Labelled lines (User: / Assistant:)"),
  messages: z
    .array(transcriptMessage)
    .min(1, "must not be empty")
    .max(LIMITS.transcriptMessagesMax, `at most ${LIMITS.transcriptMessagesMax} messages`)
    .optional()
    .describe("Or as messages"),
  source: z.string().trim().min(1, "must not be empty").pipe(sourceText).optional().describe("Source of every memory"),
  category: category.optional().describe("Category of every memory"),
  tags: tags.optional().describe("Tags of every memory"),
  shared: z.boolean().optional().describe("For all agents"),
  event_time: isoDate.optional().describe("When (ISO 8601)"),
  user_name: speakerName.optional().describe("User's speaker label"),
  assistant_name: speakerName.optional().describe("Assistant's speaker label"),
});
export type SummarizeInput = z.infer<typeof summarizeInput>;
