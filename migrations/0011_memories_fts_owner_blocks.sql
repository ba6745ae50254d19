-- Each owner's FTS rows in a block of rowids of its own (issue 14): rowid = block × 2^32 + n
-- (storage/fts-owner-block.ts). Recall's BM25 then limits FTS5 to the owner's rows with
-- `rowid BETWEEN` (FTS5 seeks its doclists to the range) instead of ANDing the owner token, whose
-- doclist holds one entry per row of the owner: at 100k memories in one store walking it was about
-- half of what the statement cost (docs/benchmarks.md "Recall at 100k"). `fts_owner_blocks` gives
-- every owner (its address, as in `memories_fts.owner`) one block, for good. Rowids cannot be
-- changed in place, so the table is rebuilt, every row kept with its owner: its new rowid is its
-- block's start plus its old rowid (unique in the table, so unique in the block; old rowids are far
-- below 2^32, and new rows take the block's next rowids). The copy goes in slices of 250,000 old
-- rowids, each one statement well inside D1's time per query (100k rows took 7 s locally); the last
-- slice takes every rowid above the others, so no row is left behind.
CREATE TABLE `fts_owner_blocks` (
	`owner` text PRIMARY KEY NOT NULL,
	`block` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fts_owner_blocks_block_idx` ON `fts_owner_blocks` (`block`);
--> statement-breakpoint
INSERT INTO `fts_owner_blocks` (`owner`, `block`)
	SELECT `owner`, row_number() OVER (ORDER BY `owner`) FROM (SELECT DISTINCT `owner` FROM `memories_fts`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `memories_fts_next` USING fts5(
  `tokens`,
  `context`,
  `owner_key`,
  `memory_id` UNINDEXED,
  `owner` UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 0'
);
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` <= 250000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 250000 AND f.`rowid` <= 500000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 500000 AND f.`rowid` <= 750000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 750000 AND f.`rowid` <= 1000000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 1000000 AND f.`rowid` <= 1250000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 1250000 AND f.`rowid` <= 1500000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 1500000 AND f.`rowid` <= 1750000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 1750000 AND f.`rowid` <= 2000000;
--> statement-breakpoint
INSERT INTO `memories_fts_next` (`rowid`, `tokens`, `context`, `owner_key`, `memory_id`, `owner`)
	SELECT b.`block` * 4294967296 + f.`rowid`, f.`tokens`, f.`context`, f.`owner_key`, f.`memory_id`, f.`owner`
	FROM `memories_fts` f JOIN `fts_owner_blocks` b ON b.`owner` = f.`owner` WHERE f.`rowid` > 2000000;
--> statement-breakpoint
DROP TABLE `memories_fts`;
--> statement-breakpoint
ALTER TABLE `memories_fts_next` RENAME TO `memories_fts`;
