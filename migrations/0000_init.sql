CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text,
	`app_name` text,
	`scope` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `memories` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`agent_id` text,
	`content` text NOT NULL,
	`summary` text,
	`category` text DEFAULT 'general' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`priority` integer DEFAULT 3 NOT NULL,
	`confidence` real DEFAULT 1 NOT NULL,
	`importance` real DEFAULT 0.5 NOT NULL,
	`memory_type` text DEFAULT 'semantic' NOT NULL,
	`source` text,
	`external_id` text,
	`derived_from` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`superseded_by` text,
	`content_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`event_time` integer,
	`expires_at` integer,
	`deleted_at` integer,
	`last_accessed_at` integer,
	`access_count` integer DEFAULT 0 NOT NULL,
	`embedding_model` text,
	`indexed_at` integer
);
--> statement-breakpoint
CREATE INDEX `memories_owner_status_idx` ON `memories` (`account_id`,`user_id`,`status`);--> statement-breakpoint
CREATE INDEX `memories_owner_hash_idx` ON `memories` (`account_id`,`user_id`,`content_hash`);--> statement-breakpoint
CREATE INDEX `memories_owner_created_idx` ON `memories` (`account_id`,`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_status_expires_idx` ON `memories` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `memories_status_deleted_idx` ON `memories` (`status`,`deleted_at`);--> statement-breakpoint
CREATE TABLE `memory_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`memory_id` text NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`op` text NOT NULL,
	`before` text,
	`after` text,
	`actor` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `memory_events_memory_idx` ON `memory_events` (`memory_id`,`at`);