-- Legacy SSE sessions (issue 11, finding 2): every session id the server issues, bound to the credential
-- (API key or OAuth grant) that opened it; a message for an id not here, or from another credential, is a 404.
CREATE TABLE `sse_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`credential` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sse_sessions_created_idx` ON `sse_sessions` (`created_at`);