/**
 * @module memory/limits
 * Every input limit in one place, named, so errors and docs quote the same numbers.
 */
export const LIMITS = {
  contentMaxChars: 8000,
  queryMaxChars: 1000,
  tagsMax: 20,
  tagMaxChars: 50,
  categoryMaxChars: 50,
  sourceMaxChars: 500,
  idMaxChars: 64,
  idsPerCallMax: 100,
  recallLimitMax: 50,
  listLimitMax: 100,
  bodyMaxBytes: 1_048_576,
  importLinesMax: 5000,
  /** An import line's own id (external_id) in the system it comes from. */
  externalIdMaxChars: 128,
  /** Per-line errors one import response lists; the count covers the rest. */
  importErrorsMax: 100,
  /** History events one imported memory may carry (a Hippocampus export's history). */
  importHistoryMax: 1000,
  /** Fields one imported history snapshot (before/after) may carry; each a text, number, flag, null or list of texts. */
  historyFieldsMax: 64,
  /** Items in one list value of an imported history snapshot (tags, derived_from, …). */
  historyListMax: 1000,
  /** Characters of an imported history event's actor. */
  actorMaxChars: 200,
  ttlDaysMax: 36500,
  userIdMaxChars: 128,
  agentIdMaxChars: 128,
  transcriptMaxChars: 60_000,
  transcriptMessagesMax: 500,
  /** Facts one summarize_conversation call saves; the rest are reported as skipped. */
  factsPerTranscriptMax: 50,
  speakerNameMaxChars: 64,
} as const;

/** ULIDs (26 chars, Crockford base32) or external-style ids: letters, digits, `_-:.#`, ≤ 64 chars. */
export const ID_PATTERN = /^[A-Za-z0-9_\-:.#]{1,64}$/;
export const ID_RULE = "must be 1-64 characters of letters, digits, _ - : . #";

/**
 * What a label may not contain: every field that reaches a rendering (category, tags, source, an
 * event's actor, the labels of an imported history snapshot) prints on one line, as quoted data.
 * Refused: control characters (newlines included), line and paragraph separators, every invisible
 * format character (Unicode category Cf: the bidirectional controls U+202A–U+202E, U+2066–U+2069,
 * U+200E/U+200F and U+061C that reorder what a reader sees, the zero-width U+200B–U+200D, U+2060,
 * U+FEFF, soft hyphens, tag characters) and lone surrogates. Quoting escapes none of the invisible
 * ones, so they are refused at the door rather than stripped: what is stored is what was sent.
 */
export const LABEL_UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
export const LABEL_RULE =
  "must not contain control characters, line breaks or invisible format characters (bidirectional controls such as U+202E, zero-width characters such as U+200B, U+FEFF)";

/** True when a label prints safely on one line. */
export const isSafeLabel = (value: string): boolean => !LABEL_UNSAFE.test(value);
