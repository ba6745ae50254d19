-- Entities (src/memory/entities, docs/architecture.md "Entities"): the people, places, organisations,
-- pets, products and events an owner's memories name, the keys (name and aliases) they are looked up
-- by, which memory names which entity, and the relations memories state. Every row carries its owner
-- (account, namespace, user). `id` of the link tables is local to a database (a shard move pages on it
-- and does not copy it). `memories.entities_at`: when a memory's entities were extracted (null: not
-- yet; the Cron job fills in rows stored before this table existed).
CREATE TABLE `entities` (
	`account_id` text NOT NULL,
	`namespace` text NOT NULL,
	`user_id` text NOT NULL,
	`id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text DEFAULT 'other' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY (`account_id`, `namespace`, `user_id`, `id`)
);
--> statement-breakpoint
CREATE TABLE `entity_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`namespace` text NOT NULL,
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`entity_id` text NOT NULL,
	`label` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entity_keys_owner_key_idx` ON `entity_keys` (`account_id`, `namespace`, `user_id`, `key`, `entity_id`);
--> statement-breakpoint
CREATE INDEX `entity_keys_owner_entity_idx` ON `entity_keys` (`account_id`, `namespace`, `user_id`, `entity_id`);
--> statement-breakpoint
CREATE TABLE `entity_mentions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`namespace` text NOT NULL,
	`user_id` text NOT NULL,
	`memory_id` text NOT NULL,
	`entity_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entity_mentions_owner_memory_idx` ON `entity_mentions` (`account_id`, `namespace`, `user_id`, `memory_id`, `entity_id`);
--> statement-breakpoint
CREATE INDEX `entity_mentions_owner_entity_idx` ON `entity_mentions` (`account_id`, `namespace`, `user_id`, `entity_id`);
--> statement-breakpoint
CREATE TABLE `entity_relations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`namespace` text NOT NULL,
	`user_id` text NOT NULL,
	`memory_id` text DEFAULT '' NOT NULL,
	`subject_id` text NOT NULL,
	`predicate` text NOT NULL,
	`object_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `entity_relations_owner_memory_idx` ON `entity_relations` (`account_id`, `namespace`, `user_id`, `memory_id`, `subject_id`, `predicate`, `object_id`);
--> statement-breakpoint
CREATE INDEX `entity_relations_owner_subject_idx` ON `entity_relations` (`account_id`, `namespace`, `user_id`, `subject_id`);
--> statement-breakpoint
CREATE INDEX `entity_relations_owner_object_idx` ON `entity_relations` (`account_id`, `namespace`, `user_id`, `object_id`);
--> statement-breakpoint
-- A shard move pages through one owner's link rows by their local id.
CREATE INDEX `entity_keys_owner_id_idx` ON `entity_keys` (`account_id`, `namespace`, `user_id`, `id`);
--> statement-breakpoint
CREATE INDEX `entity_mentions_owner_id_idx` ON `entity_mentions` (`account_id`, `namespace`, `user_id`, `id`);
--> statement-breakpoint
CREATE INDEX `entity_relations_owner_id_idx` ON `entity_relations` (`account_id`, `namespace`, `user_id`, `id`);
--> statement-breakpoint
ALTER TABLE `memories` ADD `entities_at` integer;
--> statement-breakpoint
CREATE INDEX `memories_entities_pending_idx` ON `memories` (`account_id`, `namespace`, `user_id`, `created_at`) WHERE status = 'active' AND entities_at IS NULL;
