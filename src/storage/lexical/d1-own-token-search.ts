/**
 * @module storage/lexical/d1-own-token-search
 * BM25 over the owner's rows' own tokens only (not the neighbour context an import adds, which is
 * for recall): the write path's duplicate and conflict checks. The hits come with their rows from
 * the same statement (the join is there already), so a check needs no second read. Recall's BM25
 * is d1-lexical-search.ts.
 */
import { ownerAddress } from "../../memory/owner-address";
import type { LexicalRows } from "../../memory/ports";
import { ftsMatchExpression } from "../../memory/text/tokenize";
import type { MemoryStatus, Owner } from "../../memory/types";
import { rawRowToMemory } from "../memories/memory-mapper";
import { ftsBlockRange } from "./fts-owner-block";
import { ftsColumnsMatch } from "./fts-owner-key";

export async function searchOwnTokens(
  d1: D1Database,
  owner: Owner,
  tokens: string[],
  limit: number,
  statuses: MemoryStatus[],
): Promise<LexicalRows> {
  const terms = ftsMatchExpression(tokens);
  if (!terms) return { hits: [], rows: [] };
  // The owner's block of rowids narrows the match to this user's rows (fts-owner-block.ts); the
  // owner_key column weighs 0 (columns: tokens, context, owner_key).
  const address = ownerAddress(owner);
  const { results: raw } = await d1
    .prepare(`
      SELECT m.*, -bm25(memories_fts, 1.0, 1.0, 0.0) AS bm25_score
      FROM memories_fts f JOIN memories m ON m.id = f.memory_id AND m.account_id = ? AND m.namespace = ? AND m.user_id = ?
      WHERE memories_fts MATCH ? AND ${ftsBlockRange("f.rowid", "?")} AND f.owner = ?
        AND m.status IN (${statuses.map(() => "?").join(", ")})
      ORDER BY bm25_score DESC LIMIT ?`)
    .bind(
      owner.accountId,
      owner.namespace,
      owner.userId,
      ftsColumnsMatch(terms, "tokens"),
      address,
      address,
      address,
      ...statuses,
      limit,
    )
    .all<Record<string, unknown>>();
  return {
    hits: raw.map((r) => ({ id: String(r.id), score: Number(r.bm25_score) })),
    rows: raw.map(rawRowToMemory),
  };
}
