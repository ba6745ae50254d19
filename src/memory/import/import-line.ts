/**
 * @module memory/import/import-line
 * zod schema of one bulk-import line (one JSON object per line of a JSON Lines body): the
 * save_memory fields that describe a memory, plus the caller's own id for it and its original
 * creation time. The single source of truth for the import endpoint, its per-line errors and the
 * import pipeline's types.
 */
import { z } from "zod";
import { saveInput } from "../contracts";
import { LIMITS } from "../limits";

const isoDate = z.iso.datetime({ offset: true }).or(z.iso.date());

/** No control characters, no surrounding spaces: an id must print and compare as written. */
const EXTERNAL_ID = /^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u;

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
      .max(LIMITS.sourceMaxChars, `must be at most ${LIMITS.sourceMaxChars} characters`)
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
  })
  .strict();

export type ImportLine = z.infer<typeof importLine>;

/** A validated line and its 1-based line number in the request body. */
export interface NumberedLine {
  line: number;
  input: ImportLine;
}
