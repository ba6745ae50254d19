/**
 * @module storage/memories/d1-memory-events
 * A memory's history in `memory_events`: the statements that append an event (always, only when
 * the UPDATE before it changed its row, or only once a purge removed the memory) and the read of one
 * memory's events. Events carry the owner's columns; every read and change of them is scoped to the owner.
 */
import { and, asc, eq, type SQL } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { MemoryEvent, Owner } from "../../memory/types";
import { prepared } from "../d1-prepared";
import { memoryEvents } from "../schema";
import { rowToEvent } from "./memory-mapper";

const INSERT_EVENT =
  "INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, before, after, actor, at)";

/** An event as the columns of its row (snapshots as JSON text). */
export function eventValues(owner: Owner, e: MemoryEvent) {
  return {
    memoryId: e.memoryId,
    accountId: owner.accountId,
    namespace: owner.namespace,
    userId: owner.userId,
    op: e.op,
    before: e.before ? JSON.stringify(e.before) : null,
    after: e.after ? JSON.stringify(e.after) : null,
    actor: e.actor,
    at: e.at,
  };
}

/** The owner's events of memory `id` (drizzle). */
export function eventsOf(owner: Owner, id: string): SQL {
  return and(
    eq(memoryEvents.accountId, owner.accountId),
    eq(memoryEvents.namespace, owner.namespace),
    eq(memoryEvents.userId, owner.userId),
    eq(memoryEvents.memoryId, id),
  )!;
}

export function eventInsert(d1: D1Database, db: DrizzleD1Database, owner: Owner, e: MemoryEvent): D1PreparedStatement {
  return prepared(d1, db.insert(memoryEvents).values(eventValues(owner, e)));
}

/** The event, only if the statement just before it in the batch changed a row (changes()). */
export function eventInsertIfChanged(d1: D1Database, owner: Owner, e: MemoryEvent): D1PreparedStatement {
  const v = eventValues(owner, e);
  return d1
    .prepare(`${INSERT_EVENT} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0`)
    .bind(v.memoryId, v.accountId, v.namespace, v.userId, v.op, v.before, v.after, v.actor, v.at);
}

/** A content-free purge event for memory `id`, only once the memory is gone. */
export function purgeEventInsert(d1: D1Database, owner: Owner, id: string, actor: string, at: number) {
  const v = eventValues(owner, { memoryId: id, op: "purge", before: null, after: null, actor, at });
  return d1
    .prepare(
      `${INSERT_EVENT} SELECT ?, ?, ?, ?, ?, NULL, NULL, ?, ? WHERE NOT EXISTS (SELECT 1 FROM memories WHERE id = ?)`,
    )
    .bind(v.memoryId, v.accountId, v.namespace, v.userId, v.op, v.actor, v.at, id);
}

/** Memory `id`'s events in the order they happened. */
export async function readHistory(db: DrizzleD1Database, owner: Owner, id: string): Promise<MemoryEvent[]> {
  const rows = await db
    .select()
    .from(memoryEvents)
    .where(eventsOf(owner, id))
    .orderBy(asc(memoryEvents.at), asc(memoryEvents.id));
  return rows.map(rowToEvent);
}
