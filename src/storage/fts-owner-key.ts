/**
 * @module storage/fts-owner-key
 * FTS5 scoping by owner. The owner token (`ftsOwnerKey`, memory/owner-address.ts: hex of the
 * owner's injective address, what SQLite's lower(hex(<address>)) gives) is ANDed with a search's
 * words, so FTS5 only ever scores this owner's rows. The same column also holds the row's own token
 * ("m" + memory id, migrations/0008): `memory_id` and `owner` are UNINDEXED, so a lookup by them
 * would scan every user's rows, while a MATCH on the row token is an index lookup.
 */
import { ftsOwnerKey } from "../memory/owner-address";
import type { Owner } from "../memory/types";

/** FTS5 query: this owner's rows whose own tokens (and context, when asked) match `terms`. */
export function ownerScopedMatch(owner: Owner, terms: string, columns: "tokens" | "tokens context"): string {
  return `{owner_key} : "${ftsOwnerKey(owner)}" AND {${columns}} : (${terms})`;
}

/** SQL for the owner_key column of a new row from SQL expressions of the owner's address and the memory id. */
export function ftsRowKeySql(address: string, memoryId: string): string {
  // Parenthesised: `->>` binds like `||`, so `… || value ->> 0` would read the whole key as JSON.
  return `lower(hex(${address})) || ' m' || (${memoryId})`;
}

/** ftsRowKeySql binding the owner's address, then the memory id. */
export const FTS_ROW_KEY_SQL = ftsRowKeySql("?", "?");

/**
 * FTS5 query for one memory's row by its row token (a phrase: ids may hold separators, so callers
 * still check `memory_id` and `owner` exactly on the row it reaches).
 */
export function ftsRowMatch(memoryId: string): string {
  return `{owner_key} : "m${memoryId.replaceAll('"', '""')}"`;
}
