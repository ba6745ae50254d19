-- Owner namespaces (issue 11, findings 1 and 3; DESIGN §8). An owner is (account, namespace, user):
-- `user` holds people's own stores, `app:<app name>` the end users of one app, so an app key can no
-- longer reach a person's store (or another app's) by passing a colliding user_id. Everywhere an
-- owner is named it is now the injective JSON address [account, namespace, user]
-- (src/memory/owner-address.ts; `json_array(account_id, namespace, user_id)` is the same text).
ALTER TABLE `memories` ADD `namespace` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE `memory_events` ADD `namespace` text DEFAULT 'user' NOT NULL;--> statement-breakpoint
-- Existing rows: a memory belongs to the app whose key wrote its first keyed event (create, import,
-- summarize); rows a person's key wrote, and rows with no keyed event, stay in `user`.
UPDATE `memories` SET `namespace` = coalesce((
  SELECT CASE k.`scope` WHEN 'app' THEN 'app:' || k.`app_name` ELSE 'user' END
  FROM `memory_events` e JOIN `api_keys` k ON e.`actor` = 'key:' || k.`id` AND k.`account_id` = e.`account_id`
  WHERE e.`memory_id` = `memories`.`id` AND e.`account_id` = `memories`.`account_id` AND e.`user_id` = `memories`.`user_id`
  ORDER BY e.`at`, e.`id` LIMIT 1
), 'user');--> statement-breakpoint
-- Memories the cron derived (consolidation) follow the memories they were derived from.
UPDATE `memories` SET `namespace` = (
  SELECT s.`namespace` FROM `memories` s, json_each(`memories`.`derived_from`) d
  WHERE s.`id` = d.`value` AND s.`account_id` = `memories`.`account_id` AND s.`user_id` = `memories`.`user_id`
    AND s.`namespace` <> 'user'
  LIMIT 1
) WHERE `namespace` = 'user' AND NOT EXISTS (
  SELECT 1 FROM `memory_events` e WHERE e.`memory_id` = `memories`.`id` AND e.`actor` LIKE 'key:%'
) AND EXISTS (
  SELECT 1 FROM `memories` s, json_each(`memories`.`derived_from`) d
  WHERE s.`id` = d.`value` AND s.`account_id` = `memories`.`account_id` AND s.`user_id` = `memories`.`user_id`
    AND s.`namespace` <> 'user'
);--> statement-breakpoint
-- Events follow their memory; events of purged memories (content-free) follow the key that wrote them.
UPDATE `memory_events` SET `namespace` = coalesce(
  (SELECT m.`namespace` FROM `memories` m WHERE m.`id` = `memory_events`.`memory_id`
     AND m.`account_id` = `memory_events`.`account_id` AND m.`user_id` = `memory_events`.`user_id`),
  (SELECT 'app:' || k.`app_name` FROM `api_keys` k WHERE `memory_events`.`actor` = 'key:' || k.`id`
     AND k.`scope` = 'app' AND k.`account_id` = `memory_events`.`account_id`),
  'user'
);--> statement-breakpoint
-- The FTS owner (exact check) and owner token (MATCH scope) become the new address.
UPDATE `memories_fts` SET
  `owner` = (SELECT json_array(m.`account_id`, m.`namespace`, m.`user_id`) FROM `memories` m WHERE m.`id` = `memories_fts`.`memory_id`),
  `owner_key` = (SELECT lower(hex(json_array(m.`account_id`, m.`namespace`, m.`user_id`))) FROM `memories` m WHERE m.`id` = `memories_fts`.`memory_id`)
WHERE EXISTS (SELECT 1 FROM `memories` m WHERE m.`id` = `memories_fts`.`memory_id`);--> statement-breakpoint
-- Vectors carry the owner as metadata (Vectorize: a digest of the address) and a person's local index
-- lives in the Durable Object named by the address: re-index every active row. The cron's repair job
-- (src/memory/lifecycle/repair-index.ts) upserts them again under the new owner; until then recall
-- still finds them lexically.
UPDATE `memories` SET `indexed_at` = NULL WHERE `status` = 'active';
