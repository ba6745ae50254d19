-- FTS5 over a pre-tokenized column: the application writes space-joined tokens (CJK as character
-- bigrams, Latin as lower-cased stemmed words), so the built-in unicode61 tokenizer only splits on spaces.
CREATE VIRTUAL TABLE `memories_fts` USING fts5(
  `tokens`,
  `memory_id` UNINDEXED,
  `owner` UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 0'
);
