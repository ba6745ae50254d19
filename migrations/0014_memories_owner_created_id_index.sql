-- Export pages are keyset pages over (created_at, id) of one owner (storage/d1-export-reader.ts).
-- memories_owner_created_idx ends at created_at, so every memory sharing a created_at (an import
-- gives a whole batch the same one) had to be read and sorted by id for each page: a store imported
-- at once cost the whole store per page. With id in the index a page is a seek and 'limit' rows.
CREATE INDEX `memories_owner_created_id_idx` ON `memories` (`account_id`, `namespace`, `user_id`, `created_at`, `id`);
