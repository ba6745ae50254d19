/**
 * @module storage/d1-owner-scope
 * How a statement keeps to one owner's `memories` rows: the row's account, namespace and user each
 * equal the owner's (BINARY comparison: case, trailing spaces, quotes and every other character
 * count). Two forms of that one check, by how SQLite should find the rows: `ownedBy` (drizzle) leaves
 * the owner indexes usable, for scans of the owner's rows; `ownerIdsWhere` (SQL text, so it can stand
 * inside a hand-written statement such as recall's one `UNION ALL`) reaches rows by their primary key
 * and checks the owner on each: the one home of "a memory row of this owner, by id".
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { Owner } from "../memory/types";
import { memories } from "./schema";

/** The owner's rows (drizzle). */
export function ownedBy(owner: Owner): SQL {
  return and(
    eq(memories.accountId, owner.accountId),
    eq(memories.namespace, owner.namespace),
    eq(memories.userId, owner.userId),
  )!;
}

/**
 * SQL: the owner's rows of `table` (the table's name or alias) among a JSON array of ids; binds
 * `ownerIdsBinds`. Unary + keeps SQLite on the primary key: with the owner columns indexable it walks
 * the user's whole owner index instead (getMany: 47 ms vs 0.6 ms for 90 ids at 100k rows; an UPDATE
 * by `id IN (json_each)` likewise, EXPLAIN QUERY PLAN).
 */
export function ownerIdsWhere(table: string): string {
  return `${table}.id IN (SELECT value FROM json_each(?)) AND +${table}.account_id = ? AND +${table}.namespace = ? AND +${table}.user_id = ?`;
}

/** ownerIdsWhere's binds: the ids as one JSON array (d1-bulk-rows.ts jsonIdChunks), then the owner's columns. */
export function ownerIdsBinds(ids: string, owner: Owner): [string, string, string, string] {
  return [ids, owner.accountId, owner.namespace, owner.userId];
}

/** How many parameters ownerIdsWhere binds (D1 allows 100 a statement). */
export const OWNER_IDS_BOUND = 4;
