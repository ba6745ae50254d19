/**
 * @module storage/lexical/fts-owner-key
 * The `owner_key` column of an FTS row: the owner token (`ftsOwnerKey`, memory/owner-address.ts: hex
 * of the owner's injective address, what SQLite's lower(hex(<address>)) gives), which finds all of
 * one owner's rows (shard moves, d1-owner-rows.ts), and the row's own token ("m" + memory id,
 * migrations/0008): `memory_id` and `owner` are UNINDEXED, so a lookup by them would scan every
 * user's rows, while a MATCH on the row token is an index lookup. Searches do not AND the owner
 * token: they keep to the owner's block of rowids (fts-owner-block.ts), which costs FTS5 far less.
 */

/** FTS5 query: rows whose own tokens (and context, when asked) match `terms`; the caller limits it to one owner's block. */
export function ftsColumnsMatch(terms: string, columns: "tokens" | "tokens context"): string {
  return `{${columns}} : (${terms})`;
}

/** SQL for the owner_key column of a new row from SQL expressions of the owner's address and the memory id. */
export function ftsRowKeySql(address: string, memoryId: string): string {
  // Parenthesised: `->>` binds like `||`, so `… || value ->> 0` would read the whole key as JSON.
  return `lower(hex(${address})) || ' m' || (${memoryId})`;
}

/**
 * FTS5 query for one memory's row by its row token (a phrase: ids may hold separators, so callers
 * still check `memory_id` and `owner` exactly on the row it reaches).
 */
export function ftsRowMatch(memoryId: string): string {
  return `{owner_key} : "m${memoryId.replaceAll('"', '""')}"`;
}
