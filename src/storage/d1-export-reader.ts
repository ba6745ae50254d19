/**
 * @module storage/d1-export-reader
 * ExportReader on D1: keyset pages over (created_at, id) on the owner's created_at index, every
 * status, and the events of one page's rows. Each call is bounded by its page, so an export of any
 * size reads D1 in constant memory.
 */
import { and, asc, count, eq, gt, gte, inArray, or, type SQL } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { ExportFilter } from "../memory/export/export-format";
import type { ExportReader, Keyset } from "../memory/ports";
import type { Memory, MemoryEvent, Owner } from "../memory/types";
import { ownedBy } from "./d1-owner-scope";
import { rowToEvent, rowToMemory } from "./memory-mapper";
import { memories, memoryEvents } from "./schema";

/** D1 caps bound parameters per statement at 100. */
const PARAM_CHUNK = 90;

/** D1 statements one export page of `pageSize` rows takes: the page, then its events in chunks of ids. */
export const exportPageQueries = (pageSize: number) => 1 + Math.ceil(pageSize / PARAM_CHUNK);

export class D1ExportReader implements ExportReader {
  private readonly db: DrizzleD1Database;

  constructor(d1: D1Database) {
    this.db = drizzle(d1);
  }

  private where(owner: Owner, filter: ExportFilter): (SQL | undefined)[] {
    const terms: (SQL | undefined)[] = [ownedBy(owner)];
    if (filter.status !== "all") terms.push(eq(memories.status, filter.status));
    if (filter.category !== undefined) terms.push(eq(memories.category, filter.category));
    if (filter.since !== undefined) terms.push(gte(memories.createdAt, filter.since));
    if (filter.agentId !== undefined) terms.push(eq(memories.agentId, filter.agentId));
    return terms;
  }

  async count(owner: Owner, filter: ExportFilter): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(memories)
      .where(and(...this.where(owner, filter)));
    return row?.n ?? 0;
  }

  async exportPage(owner: Owner, filter: ExportFilter, after: Keyset | null, limit: number): Promise<Memory[]> {
    const terms = this.where(owner, filter);
    if (after)
      terms.push(
        or(
          gt(memories.createdAt, after.createdAt),
          and(eq(memories.createdAt, after.createdAt), gt(memories.id, after.id)),
        ),
      );
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(...terms))
      .orderBy(asc(memories.createdAt), asc(memories.id))
      .limit(limit);
    return rows.map(rowToMemory);
  }

  async eventsOf(owner: Owner, ids: string[]): Promise<Map<string, MemoryEvent[]>> {
    const out = new Map<string, MemoryEvent[]>();
    for (let i = 0; i < ids.length; i += PARAM_CHUNK) {
      const rows = await this.db
        .select()
        .from(memoryEvents)
        .where(
          and(
            eq(memoryEvents.accountId, owner.accountId),
            eq(memoryEvents.namespace, owner.namespace),
            eq(memoryEvents.userId, owner.userId),
            inArray(memoryEvents.memoryId, ids.slice(i, i + PARAM_CHUNK)),
          ),
        )
        .orderBy(asc(memoryEvents.memoryId), asc(memoryEvents.at), asc(memoryEvents.id));
      for (const row of rows) {
        const list = out.get(row.memoryId) ?? [];
        list.push(rowToEvent(row));
        out.set(row.memoryId, list);
      }
    }
    return out;
  }
}
