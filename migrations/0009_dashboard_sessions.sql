-- Dashboard sessions (issue 13, src/http/dashboard/session-store.ts): the SHA-256 of the session cookie's
-- random token, who signed in (account, user, the key or passphrase fingerprint signed in with), the
-- session's CSRF token and its expiry. The cookie itself is never stored.
CREATE TABLE `dashboard_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`user_id` text NOT NULL,
	`key_id` text NOT NULL,
	`passphrase_fingerprint` text,
	`csrf` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dashboard_sessions_expires_idx` ON `dashboard_sessions` (`expires_at`);
