-- Shard directory (issue 15, docs/shards.md). Lives in the home database (binding DB) only in use,
-- but every shard gets every migration so their schemas never differ. `shard_accounts`: the shard an
-- account lives on, and whether it is being moved (state `moving`, to `target`). `shard_owners`: the
-- shard each owner (account, namespace, user) actually is on — during a move an account's owners go
-- one at a time, each inside its own Durable Object's write queue; at rest every owner of an account
-- is on the account's shard.
CREATE TABLE `shard_accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`state` text DEFAULT 'active' NOT NULL,
	`target` text,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shard_owners` (
	`account_id` text NOT NULL,
	`namespace` text NOT NULL,
	`user_id` text NOT NULL,
	`shard` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY (`account_id`, `namespace`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `shard_accounts_shard_idx` ON `shard_accounts` (`shard`);
--> statement-breakpoint
CREATE INDEX `shard_owners_shard_idx` ON `shard_owners` (`shard`);
--> statement-breakpoint
-- A move copies and deletes one owner's history; without this, each page scanned every event.
CREATE INDEX `memory_events_owner_idx` ON `memory_events` (`account_id`, `namespace`, `user_id`, `id`);
--> statement-breakpoint
-- Everything stored before shards existed is on the home database. (On a new, empty shard these
-- select nothing.)
INSERT OR IGNORE INTO `shard_accounts` (`account_id`, `shard`, `state`, `updated_at`)
	SELECT DISTINCT `account_id`, 'DB', 'active', CAST(strftime('%s', 'now') AS integer) * 1000 FROM `memories`;
--> statement-breakpoint
INSERT OR IGNORE INTO `shard_owners` (`account_id`, `namespace`, `user_id`, `shard`, `created_at`)
	SELECT DISTINCT `account_id`, `namespace`, `user_id`, 'DB', CAST(strftime('%s', 'now') AS integer) * 1000 FROM `memories`;
