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
