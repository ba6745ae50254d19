-- OAuth clients registered through dynamic client registration (src/storage/d1-client-registrations.ts):
-- when each was registered and when a person first authorised it. A registration evicts clients never
-- authorised within a day, and the oldest never-authorised ones past a total cap, instead of refusing
-- an address after 20 a day (a hosted client such as ChatGPT or Claude registers from its own
-- servers for everyone behind it). The per-address day counts of migration 0013 go.
CREATE TABLE `oauth_client_registrations` (
	`client_id` text PRIMARY KEY NOT NULL,
	`registered_at` integer NOT NULL,
	`authorized_at` integer
);
--> statement-breakpoint
CREATE INDEX `oauth_client_registrations_pending_idx` ON `oauth_client_registrations` (`registered_at`, `client_id`) WHERE `authorized_at` IS NULL;
--> statement-breakpoint
DROP TABLE `client_registrations`;
