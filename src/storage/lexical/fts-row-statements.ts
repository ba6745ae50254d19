/**
 * @module storage/lexical/fts-row-statements
 * Statements on one memory's FTS row: replace its own tokens (or insert the row, on a restore),
 * delete it, and delete it on a purge only once its memory is gone. The row is reached by its row
 * token (an FTS5 index lookup, fts-owner-key.ts), then checked exactly: memory id and owner address.
 */
import { ftsBlockInsert } from "./fts-owner-block";
import { ftsRowKeySql, ftsRowMatch } from "./fts-owner-key";

/** One memory's FTS row: reached by its row token through the FTS index, then checked exactly (SQL expressions: the row match, the id, the owner's address). */
const ftsRowWhere = (match: string, id: string, address: string) =>
  `memories_fts MATCH ${match} AND memory_id = ${id} AND owner = ${address}`;

/** ftsRowWhere binding the row match, then the memory id, then the owner's address. */
export const FTS_ROW_WHERE = ftsRowWhere("?", "?", "?");

/** A purge's FTS delete: the row by its token, only once its memory is gone (binds FTS_ROW_WHERE's, then the id). */
export const FTS_ROW_PURGE = `DELETE FROM memories_fts WHERE ${FTS_ROW_WHERE} AND NOT EXISTS (SELECT 1 FROM memories WHERE id = ?)`;

/** New own tokens for a row, keeping its neighbour context; inserts the row when it has none (restore). */
export function ftsReplace(d1: D1Database, id: string, address: string, tokens: string): D1PreparedStatement[] {
  return [
    d1.prepare(`UPDATE memories_fts SET tokens = ? WHERE ${FTS_ROW_WHERE}`).bind(tokens, ftsRowMatch(id), id, address),
    // ?1 the owner's address, ?2 the tokens, ?3 the id, ?4 the row match.
    ...ftsBlockInsert(
      d1,
      address,
      {
        columns: "tokens, context, owner_key, memory_id, owner",
        ordinal: "1",
        values: `?2, '', ${ftsRowKeySql("?1", "?3")}, ?3, ?1`,
        from: `WHERE NOT EXISTS (SELECT 1 FROM memories_fts WHERE ${ftsRowWhere("?4", "?3", "?1")})`,
      },
      tokens,
      id,
      ftsRowMatch(id),
    ),
  ];
}

export function ftsDelete(d1: D1Database, id: string, address: string): D1PreparedStatement {
  return d1.prepare(`DELETE FROM memories_fts WHERE ${FTS_ROW_WHERE}`).bind(ftsRowMatch(id), id, address);
}

/** FTS_ROW_PURGE for one memory. */
export function ftsPurge(d1: D1Database, id: string, address: string): D1PreparedStatement {
  return d1.prepare(FTS_ROW_PURGE).bind(ftsRowMatch(id), id, address, id);
}
