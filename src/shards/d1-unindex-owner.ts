/**
 * @module storage/d1-unindex-owner
 * After an owner crosses to a shard with another Vectorize index (VECTORIZE_BY_SHARD, docs/shards.md):
 * one page of its memories on the target, by id after a cursor, marked unindexed (`indexed_at` and
 * `embedding_model` NULL, as an edit leaves them) so the index repair (`indexed_at IS NULL`) embeds
 * them into the target's index. Answers the page's ids, which the
 * crossing then removes from the source's index. Every statement carries the owner.
 */
import type { Owner } from "../memory/types";

/** Ids per page: with the 3 owner parameters, within D1's 100 bound parameters per statement. */
export const UNINDEX_PAGE = 90;

const OWNER = "account_id = ? AND namespace = ? AND user_id = ?";

/** The next page of the owner's memory ids after `after`, unindexed on `db`; fewer than `limit`: the last page. */
export async function unindexOwnerPage(
  db: D1Database,
  owner: Owner,
  after: string,
  limit = UNINDEX_PAGE,
): Promise<string[]> {
  const args = [owner.accountId, owner.namespace, owner.userId];
  const page = await db
    .prepare(`SELECT id FROM memories WHERE ${OWNER} AND +id > ? ORDER BY +id LIMIT ?`)
    .bind(...args, after, Math.min(limit, UNINDEX_PAGE))
    .all<{ id: string }>();
  const ids = page.results.map((r) => r.id);
  if (ids.length === 0) return ids;
  await db
    .prepare(
      `UPDATE memories SET indexed_at = NULL, embedding_model = NULL WHERE ${OWNER} AND id IN (${ids.map(() => "?").join(",")}) AND indexed_at IS NOT NULL`,
    )
    .bind(...args, ...ids)
    .run();
  return ids;
}
