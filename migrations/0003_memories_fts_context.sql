-- Neighbour context for recall (issue 3): memories_fts gains a `context` column holding the
-- pre-tokenized text of a memory's neighbouring turns in the same imported conversation. bm25()
-- weighs it below the memory's own tokens (src/memory/retrieval-weights.ts: context.weight).
-- FTS5 tables cannot add columns, so the table is rebuilt; existing rows get an empty context.
CREATE VIRTUAL TABLE `memories_fts_next` USING fts5(
  `tokens`,
  `context`,
  `memory_id` UNINDEXED,
  `owner` UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 0'
);
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`tokens`, `context`, `memory_id`, `owner`) SELECT `tokens`, '', `memory_id`, `owner` FROM `memories_fts`;
--> statement-breakpoint
DROP TABLE `memories_fts`;
--> statement-breakpoint
ALTER TABLE `memories_fts_next` RENAME TO `memories_fts`;
