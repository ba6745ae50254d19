/**
 * @module storage/memories/d1-export-reader
 * ExportReader on D1: keyset pages over (created_at, id) on the owner's (created_at, id) index
 * (migration 0014: a page is a seek, however many memories share a created_at), every status,
 * the events of one page's rows, and the entity rows of the export (d1-entity-export.ts). Each call
 * is bounded by its page, so an export of any
 * size reads D1 in constant memory.
 *
 * A page's events are ONE statement: the page's ids bound as one JSON array (`json_each`, as the
 * import binds rows, storage/d1-bulk-rows.ts), looked up on the events' memory index. The owner
 * columns are compared with a unary `+` so SQLite cannot pick the owner index instead: with a list
 * of ids it preferred walking every event of the owner, once per chunk of ids, which made each
 * page cost the whole store and the export quadratic (docs/benchmarks.md, "Export in parts").
 */
import { and, asc, count, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { ExportFilter } from "../../memory/export/export-format";
import type { ExportReader, Keyset } from "../../memory/ports";
import type { Memory, MemoryEvent, Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownedBy } from "../d1-owner-scope";
import { entityPage, givenRelationPage, STATED_QUERIES, statedEntities } from "../entities/d1-entity-export";
import { memories, memoryEvents } from "../schema";
import { rowToEvent, rowToMemory } from "./memory-mapper";

/** Ids per events statement: 2,000 memory ids (26-character ULIDs) are ~60 KB of JSON, far below D1's 2 MB per value. */
const IDS_PER_STATEMENT = 2_000;

/**
 * D1 statements one export page of `pageSize` rows takes: the page, its events (ids as JSON, 2,000 a
 * statement), and what its memories name and state. An entity or relation page is one statement.
 */
export const exportPageQueries = (pageSize: number) => 1 + Math.ceil(pageSize / IDS_PER_STATEMENT) + STATED_QUERIES;

export class D1ExportReader implements ExportReader {
  private readonly db: DrizzleD1Database;

  constructor(private readonly d1: D1Database) {
    this.db = drizzle(d1);
  }

  statedOf(owner: Owner, ids: string[]) {
    return statedEntities(this.d1, owner, ids);
  }

  entityPage(owner: Owner, after: string, limit: number) {
    return entityPage(this.d1, owner, after, limit);
  }

  givenRelationPage(owner: Owner, after: number, limit: number) {
    return givenRelationPage(this.d1, owner, after, limit);
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
    // A row value, which SQLite seeks on the owner's (created_at, id) index; the equivalent OR of
    // `created_at >` and `= … AND id >` seeks created_at only and reads the rows before `id` again.
    if (after) terms.push(sql`(${memories.createdAt}, ${memories.id}) > (${after.createdAt}, ${after.id})`);
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
    const groups = Array.from({ length: Math.ceil(ids.length / IDS_PER_STATEMENT) }, (_, i) =>
      ids.slice(i * IDS_PER_STATEMENT, (i + 1) * IDS_PER_STATEMENT),
    );
    for (const json of groups.flatMap((group) => jsonIdChunks(group))) {
      const rows = await this.db
        .select()
        .from(memoryEvents)
        .where(
          and(
            sql`+${memoryEvents.accountId} = ${owner.accountId}`,
            eq(memoryEvents.namespace, owner.namespace),
            eq(memoryEvents.userId, owner.userId),
            inArray(memoryEvents.memoryId, sql`(SELECT value FROM json_each(${json}))`),
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
