/**
 * @module memory/import/import-line
 * zod schema of one bulk-import line (one JSON object per line of a JSON Lines body): the
 * save_memory fields that describe a memory, plus the caller's own id for it and its original
 * creation time. The single source of truth for the import endpoint, its per-line errors and the
 * import pipeline's types.
 */
import { z } from "zod";
import { MEMORY_STATUSES, saveInput, sourceText } from "../contracts";
import { principalIdSchema } from "../ids";
import { isSafeLabel, LABEL_RULE, LIMITS } from "../limits";
import { EVENT_OPS } from "../types";
import { redactText } from "../write/redact-secrets";

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

/** No control characters, no surrounding spaces: an id must print and compare as written. */
const EXTERNAL_ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

const ref = z
  .string()
  .max(LIMITS.externalIdMaxChars, `must be at most ${LIMITS.externalIdMaxChars} characters`)
  .regex(EXTERNAL_ID, "must be non-empty, without control characters or surrounding spaces");

/**
 * One field of a history snapshot, as the store records them: a text, number, flag, null, or a list
 * of texts (tags, derived_from). Nothing nested: a snapshot is one level deep, so depth is bounded
 * at the door (and memory_history's own output schema takes every value it may hold).
 */
const historyText = z.string().max(LIMITS.contentMaxChars, `must be at most ${LIMITS.contentMaxChars} characters`);
const historyValue = z.union(
  [
    historyText,
    z.number(),
    z.boolean(),
    z.null(),
    z.array(historyText).max(LIMITS.historyListMax, `at most ${LIMITS.historyListMax} items`),
  ],
  { error: "must be a text, number, true/false, null or a list of texts (no nested objects)" },
);
/**
 * A snapshot's field names and every text but its `content` (which may span lines, like a memory's)
 * are labels a rendering prints on one line: the dashboard's timeline and memory_history show them.
 */
const snapshotLabelProblem = (r: Record<string, unknown>): { path: string[]; message: string } | null => {
  for (const [field, value] of Object.entries(r)) {
    if (!isSafeLabel(field)) return { path: [], message: `field names ${LABEL_RULE}` };
    if (field === "content") continue;
    const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
    if (texts.some((t) => typeof t === "string" && !isSafeLabel(t))) return { path: [field], message: LABEL_RULE };
  }
  return null;
};
const historySnapshot = z
  .record(z.string().max(64, "field names must be at most 64 characters"), historyValue)
  .refine((r) => Object.keys(r).length <= LIMITS.historyFieldsMax, `at most ${LIMITS.historyFieldsMax} fields`)
  .superRefine((r, ctx) => {
    const problem = snapshotLabelProblem(r);
    if (problem) ctx.addIssue({ code: "custom", ...problem });
  });

const historyEvent = z
  .object({
    op: z.enum(EVENT_OPS).describe("What happened"),
    at: isoDate.describe("When it happened (ISO 8601)"),
    actor: z
      .string()
      .max(LIMITS.actorMaxChars, `must be at most ${LIMITS.actorMaxChars} characters`)
      .refine(isSafeLabel, LABEL_RULE)
      .describe("Who did it (a key id, the system, …)"),
    before: historySnapshot.nullable().describe("Fields before the change"),
    after: historySnapshot.nullable().describe("Fields after the change"),
  })
  .strict();

/**
 * What a Hippocampus export carries beyond a plain memory (docs/export-format.md): status, agent
 * scope, links and history. Links name other lines by their external_id (an export's old ids).
 */
const restoreFields = {
  status: z.enum(MEMORY_STATUSES).optional().describe("Status to land in (default active)"),
  agent_id: principalIdSchema
    .nullable()
    .optional()
    .describe("The agent this memory is private to (null: shared); default: the request's agent, if any"),
  importance: z.number().min(0).max(1).optional().describe("Ranking importance 0-1 (default 0.5)"),
  updated_at: isoDate.optional().describe("When the memory last changed (ISO 8601; default created_at)"),
  deleted_at: isoDate.nullable().optional().describe("When it was deleted (ISO 8601)"),
  superseded_by: ref
    .nullable()
    .optional()
    .describe("external_id of the memory that superseded this one (in this file or imported before)"),
  derived_from: z
    .array(ref)
    .max(LIMITS.idsPerCallMax, `at most ${LIMITS.idsPerCallMax} ids`)
    .optional()
    .describe("external_ids of the memories this one was consolidated from"),
  history: z
    .array(historyEvent)
    .max(LIMITS.importHistoryMax, `at most ${LIMITS.importHistoryMax} events`)
    .optional()
    .describe("The memory's events, oldest first; replaces the import's own create event"),
};

export const importLine = saveInput
  .pick({
    content: true,
    category: true,
    tags: true,
    priority: true,
    confidence: true,
    memory_type: true,
    event_time: true,
    expires_at: true,
    shared: true,
  })
  .extend({
    source: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .pipe(sourceText)
      .optional()
      .describe(
        "Where the memory came from, e.g. a conversation id. Consecutive lines with the same source are one conversation: each memory is also found by its neighbouring turns",
      ),
    external_id: z
      .string()
      .max(LIMITS.externalIdMaxChars, `must be at most ${LIMITS.externalIdMaxChars} characters`)
      .regex(EXTERNAL_ID, "must be non-empty, without control characters or surrounding spaces")
      .optional()
      .describe(
        "Your id for this memory in the system you import from; results map back by it, and a line whose external_id this user already has is skipped, so an import can be re-run safely",
      ),
    created_at: isoDate
      .optional()
      .describe("When the memory was first saved in the system you import from (ISO 8601; default now)"),
    ...restoreFields,
  })
  .strict();

export type ImportLine = z.infer<typeof importLine>;

/**
 * The line with its ids (external_id, superseded_by, derived_from) screened like every free-text
 * field: the ids are stored redacted, so they are looked up, linked, compared and
 * answered redacted too — a re-import finds them, and no secret goes into a query or an answer.
 */
export function screenIds(input: ImportLine): ImportLine {
  const { external_id, superseded_by, derived_from } = input;
  return {
    ...input,
    ...(external_id !== undefined ? { external_id: redactText(external_id) } : {}),
    ...(superseded_by ? { superseded_by: redactText(superseded_by) } : {}),
    ...(derived_from ? { derived_from: derived_from.map(redactText) } : {}),
  };
}

/** A validated line and its 1-based line number in the request body. */
export interface NumberedLine {
  line: number;
  input: ImportLine;
}

/** One problem with an import body, by line (formats/ readers and the validator report these). */
export interface LineError {
  /** 1-based line number in the body (0 for the body as a whole). */
  line: number;
  /** The offending field, when one is to blame. */
  field: string | null;
  message: string;
}
