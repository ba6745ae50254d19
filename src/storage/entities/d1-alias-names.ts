/**
 * @module storage/d1-alias-names
 * Recall's relation-word lookup on D1 (EntityStore.aliasNames): the names of the owner's entities
 * that hold one of the given alias keys ("best friend", 「闺蜜」), among those an active memory names,
 * in one statement over the owner-scoped key index (entity_keys_owner_key_idx). Every table it reads
 * carries the owner predicate.
 */
import type { AliasName } from "../../memory/ports";
import type { Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownerOf } from "./d1-entity-owner";

/** ?4: JSON array of keys; ?5: limit. An entity counts while an active memory of the owner names it. */
const ALIAS_NAMES = `SELECT k.key AS key, e.name AS name FROM entity_keys k
  JOIN entities e ON ${ownerOf("e")} AND e.id = k.entity_id
  WHERE ${ownerOf("k")} AND k.key IN (SELECT value FROM json_each(?4))
    AND EXISTS (SELECT 1 FROM entity_mentions mn JOIN memories mem ON mem.id = mn.memory_id
      AND +mem.account_id = ?1 AND +mem.namespace = ?2 AND +mem.user_id = ?3 AND +mem.status = 'active'
      WHERE ${ownerOf("mn")} AND mn.entity_id = e.id)
  ORDER BY e.updated_at DESC, e.id LIMIT ?5`;

export async function aliasNames(d1: D1Database, owner: Owner, keys: string[], limit: number): Promise<AliasName[]> {
  if (keys.length === 0 || limit <= 0) return [];
  const [json] = jsonIdChunks(keys);
  const { results } = await d1
    .prepare(ALIAS_NAMES)
    .bind(owner.accountId, owner.namespace, owner.userId, json, limit)
    .all<AliasName>();
  return results.map((r) => ({ key: r.key, name: r.name }));
}
