ALTER TABLE `memories` ADD `decayed_at` integer;--> statement-breakpoint
ALTER TABLE `memories` ADD `consolidated_at` integer;--> statement-breakpoint
CREATE INDEX `memories_status_type_created_idx` ON `memories` (`status`,`memory_type`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_status_category_created_idx` ON `memories` (`status`,`category`,`created_at`);--> statement-breakpoint
CREATE INDEX `memories_unindexed_idx` ON `memories` (`account_id`,`user_id`,`created_at`) WHERE status = 'active' AND indexed_at IS NULL;--> statement-breakpoint
CREATE INDEX `memories_model_idx` ON `memories` (`embedding_model`,`account_id`,`user_id`) WHERE status = 'active' AND indexed_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX `memories_decay_due_idx` ON `memories` (`decayed_at`,`created_at`,`account_id`,`user_id`) WHERE status = 'active' AND access_count = 0 AND importance > 0.05;--> statement-breakpoint
CREATE INDEX `memories_unconsolidated_idx` ON `memories` (`account_id`,`user_id`,`created_at`) WHERE status = 'active' AND consolidated_at IS NULL;