/**
 * @module storage/memories/d1-rows-by-id
 * Statements on the owner's memory rows named by id (any status), all through ownerIdsWhere
 * (d1-owner-scope.ts): reading them (here, and inside recall's one statement, d1-lexical-sql.ts)
 * and the two marks that change no content, so record no event: a recall's access, an indexing.
 * Ids go in chunks of one JSON array each (d1-bulk-rows.ts).
 */
import type { Memory, Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownerIdsBinds, ownerIdsWhere } from "../d1-owner-scope";
import { memorySelectList, rawRowToMemory } from "./memory-mapper";

/** The owner's rows among a JSON array of ids, every column, then `extraColumns` (binds: ownerIdsBinds). */
export function rowsByIdSql(extraColumns = ""): string {
  return `SELECT ${memorySelectList("m")}${extraColumns} FROM memories m WHERE ${ownerIdsWhere("m")}`;
}

export const ROWS_BY_ID_SQL = rowsByIdSql();

/** The owner's rows among `ids` (unknown ids and other owners' rows are left out). */
export async function readRowsById(d1: D1Database, owner: Owner, ids: string[]): Promise<Memory[]> {
  const parts = await Promise.all(
    jsonIdChunks(ids).map((json) =>
      d1
        .prepare(ROWS_BY_ID_SQL)
        .bind(...ownerIdsBinds(json, owner))
        .all<Record<string, unknown>>(),
    ),
  );
  return parts.flatMap((part) => part.results.map(rawRowToMemory));
}

const TOUCH = `UPDATE memories SET last_accessed_at = ?, access_count = access_count + 1 WHERE ${ownerIdsWhere("memories")}`;

/** One more access at `at` for each of the owner's rows among `ids`. */
export async function touchRows(d1: D1Database, owner: Owner, ids: string[], at: number): Promise<void> {
  for (const json of jsonIdChunks(ids)) {
    await d1
      .prepare(TOUCH)
      .bind(at, ...ownerIdsBinds(json, owner))
      .run();
  }
}

const MARK_INDEXED = `UPDATE memories SET embedding_model = ?, indexed_at = ? WHERE ${ownerIdsWhere("memories")}`;

/** The owner's rows among `ids` are in the vector index with `model`, as of `at`. */
export async function markRowsIndexed(
  d1: D1Database,
  owner: Owner,
  ids: string[],
  model: string,
  at: number,
): Promise<void> {
  for (const json of jsonIdChunks(ids)) {
    await d1
      .prepare(MARK_INDEXED)
      .bind(model, at, ...ownerIdsBinds(json, owner))
      .run();
  }
}
