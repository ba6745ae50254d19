-- Per-user full-text search (issue 3): memories_fts gains `owner_key`, the owner as one indexed
-- token (lower-case hex of "account:user"), so a search ANDs it with the query's words and FTS5
-- intersects posting lists instead of scoring every user's matching rows and discarding all but
-- one user's. bm25() gives the column weight 0, so it never changes a score. `owner` stays as the
-- exact check. FTS5 tables cannot add columns, so the table is rebuilt.
CREATE VIRTUAL TABLE `memories_fts_next` USING fts5(
  `tokens`,
  `context`,
  `owner_key`,
  `memory_id` UNINDEXED,
  `owner` UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 0'
);
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`tokens`, `context`, `owner_key`, `memory_id`, `owner`)
  SELECT `tokens`, coalesce(`context`, ''), lower(hex(`owner`)), `memory_id`, `owner` FROM `memories_fts`;
--> statement-breakpoint
DROP TABLE `memories_fts`;
--> statement-breakpoint
ALTER TABLE `memories_fts_next` RENAME TO `memories_fts`;
