/**
 * @module storage/memories/d1-memory-reads
 * MemoryRepo's reads of the owner's rows that scan by a column other than the id, each on an owner
 * index: a duplicate by content hash, rows by external id (imports), filtered pages (list), rows
 * not yet indexed with the current model, and the weekly counts. Reads by id: d1-rows-by-id.ts.
 */
import { and, asc, eq, gte, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { MONDAY_SHIFT_MS, WEEK_MS } from "../../memory/manage/calendar-weeks";
import type { WeeklyCount } from "../../memory/ports";
import type { ListFilter, Memory, Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownedBy } from "../d1-owner-scope";
import { memories } from "../schema";
import { listConditions, listOrder } from "./d1-list-filter";
import { rowToMemory } from "./memory-mapper";

/** `column IN` the values of a JSON array bound as one parameter (storage/d1-bulk-rows.ts). */
function inJson(column: SQLiteColumn, json: string): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${json}))`;
}

/** The newest active row with this content hash, saved by `agentId` (null: shared). */
export async function findByHash(
  db: DrizzleD1Database,
  owner: Owner,
  contentHash: string,
  agentId: string | null,
): Promise<Memory | null> {
  const agent = agentId === null ? isNull(memories.agentId) : eq(memories.agentId, agentId);
  const rows = await db
    .select()
    .from(memories)
    .where(and(ownedBy(owner), eq(memories.contentHash, contentHash), eq(memories.status, "active"), agent))
    // `+created_at`: an expression, so SQLite cannot take the owner/created index for the ORDER BY
    // and walk every row of the owner (D1 counted all of them read); it seeks memories_owner_hash_idx
    // and sorts the few rows with that hash.
    .orderBy(sql`+${memories.createdAt} desc`)
    .limit(1);
  return rows[0] ? rowToMemory(rows[0]) : null;
}

export async function findByExternalIds(db: DrizzleD1Database, owner: Owner, externalIds: string[]): Promise<Memory[]> {
  const parts = await Promise.all(
    jsonIdChunks(externalIds).map((json) =>
      db
        .select()
        .from(memories)
        .where(and(ownedBy(owner), inJson(memories.externalId, json))),
    ),
  );
  return parts.flat().map(rowToMemory);
}

export async function listMemories(db: DrizzleD1Database, owner: Owner, filter: ListFilter): Promise<Memory[]> {
  const rows = await db
    .select()
    .from(memories)
    .where(and(ownedBy(owner), ...listConditions(filter)))
    .orderBy(...listOrder(filter.order))
    .limit(filter.limit);
  return rows.map(rowToMemory);
}

/** Active rows not indexed with `model`, oldest first. */
export async function listUnindexed(
  db: DrizzleD1Database,
  owner: Owner,
  model: string,
  limit: number,
): Promise<Memory[]> {
  const stale = or(
    isNull(memories.indexedAt),
    isNull(memories.embeddingModel),
    sql`${memories.embeddingModel} <> ${model}`,
  );
  const rows = await db
    .select()
    .from(memories)
    .where(and(ownedBy(owner), eq(memories.status, "active"), stale))
    .orderBy(asc(memories.createdAt))
    .limit(limit);
  return rows.map(rowToMemory);
}

export async function weeklyCounts(db: DrizzleD1Database, owner: Owner, since: number): Promise<WeeklyCount[]> {
  // A literal divisor: a bound JS number arrives as REAL and would make the division fractional.
  const week = sql<number>`CAST((${memories.createdAt} + ${sql.raw(String(MONDAY_SHIFT_MS))}) / ${sql.raw(String(WEEK_MS))} AS INTEGER)`;
  const rows = await db
    .select({ week, category: memories.category, count: sql<number>`count(*)` })
    .from(memories)
    .where(and(ownedBy(owner), gte(memories.createdAt, since)))
    .groupBy(week, memories.category);
  return rows.map((r) => ({ week: Number(r.week), category: r.category, count: Number(r.count) }));
}
