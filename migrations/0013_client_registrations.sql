-- Dynamic client registrations per client address and UTC day (src/storage/d1-client-registrations.ts):
-- counted in D1 so one upsert both checks and counts, atomically; days before yesterday are deleted
-- as registrations arrive.
CREATE TABLE `client_registrations` (
	`address` text NOT NULL,
	`day` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY (`address`, `day`)
);
--> statement-breakpoint
CREATE INDEX `client_registrations_day_idx` ON `client_registrations` (`day`);
