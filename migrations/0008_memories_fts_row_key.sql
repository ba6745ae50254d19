-- Each FTS row carries its memory's own token (issue 14, issue 16 item 3): `owner_key` becomes
-- "<owner token> m<memory id>". `memory_id` and `owner` are UNINDEXED, so finding a row by them
-- scanned every user's FTS rows on each edit, delete and restore; a MATCH on the row token is an
-- index lookup that reaches that one row (storage/fts-owner-key.ts). bm25() weighs the column 0.
-- Idempotent: the owner token has no space, so rows that already carry a row token are skipped.
UPDATE `memories_fts` SET `owner_key` = `owner_key` || ' m' || `memory_id` WHERE instr(`owner_key`, ' ') = 0;
