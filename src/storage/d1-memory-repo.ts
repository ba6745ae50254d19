/**
 * @module storage/d1-memory-repo
 * MemoryRepo on D1 via drizzle-orm: the source of truth. Every multi-row change goes through one
 * D1 batch so a row, its FTS entry and its event land together or not at all.
 */
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { RetentionRule } from "../memory/lifecycle/lifecycle-types";
import { ownerAddress } from "../memory/owner-address";
import type {
  ActivePage,
  LexicalHits,
  LexicalRows,
  LexicalSearch,
  LinkRow,
  MemoryPatch,
  MemoryRepo,
  MemoryWrite,
  WeeklyCount,
} from "../memory/ports";
import { ftsMatchExpression } from "../memory/text/tokenize";
import type {
  ListFilter,
  Memory,
  MemoryEvent,
  MemoryStatus,
  Owner,
  ScoredId,
  StatsFilter,
  StatsSnapshot,
} from "../memory/types";
import { sourceRef } from "../memory/write/merge";
import { bulkInserts, jsonIdChunks } from "./d1-bulk-rows";
import * as links from "./d1-import-links";
import { D1LexicalSearch } from "./d1-lexical-search";
import * as lifecycle from "./d1-lifecycle-queries";
import { ownedBy } from "./d1-owner-scope";
import { markRowsIndexed, readRowsById, touchRows } from "./d1-rows-by-id";
import { statsQueries } from "./d1-stats";
import { ftsBlockInsert, ftsBlockRange } from "./fts-owner-block";
import { ftsColumnsMatch, ftsRowKeySql, ftsRowMatch } from "./fts-owner-key";
import { patchToRow, rawRowToMemory, rowToEvent, rowToMemory } from "./memory-mapper";
import { memories, memoryEvents } from "./schema";

/** One memory's FTS row: reached by its row token through the FTS index, then checked exactly (SQL expressions: the row match, the id, the owner's address). */
const ftsRowWhere = (match: string, id: string, address: string) =>
  `memories_fts MATCH ${match} AND memory_id = ${id} AND owner = ${address}`;

/** ftsRowWhere binding the row match, then the memory id, then the owner's address. */
export const FTS_ROW_WHERE = ftsRowWhere("?", "?", "?");

/** A purge's FTS delete: the row by its token, only once its memory is gone (binds FTS_ROW_WHERE's, then the id). */
export const FTS_ROW_PURGE = `DELETE FROM memories_fts WHERE ${FTS_ROW_WHERE} AND NOT EXISTS (SELECT 1 FROM memories WHERE id = ?)`;

const WEEK_MS = 7 * 24 * 3600_000;

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function eventValues(owner: Owner, e: MemoryEvent) {
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

export class D1MemoryRepo implements MemoryRepo {
  private readonly db: DrizzleD1Database;

  /** Recall's BM25 (storage/d1-lexical-search.ts); keeps the corpus size between calls. */
  private readonly lexical: D1LexicalSearch;

  constructor(private readonly d1: D1Database) {
    this.db = drizzle(d1);
    this.lexical = new D1LexicalSearch(d1);
  }

  private eventsOf(owner: Owner, id: string): SQL {
    return and(
      eq(memoryEvents.accountId, owner.accountId),
      eq(memoryEvents.namespace, owner.namespace),
      eq(memoryEvents.userId, owner.userId),
      eq(memoryEvents.memoryId, id),
    )!;
  }

  async write(owner: Owner, inserts: MemoryWrite[], patches: MemoryPatch[]): Promise<void> {
    const key = ownerAddress(owner);
    const statements = bulkInserts(this.d1, owner, key, {
      memories: inserts.map((w) => w.memory),
      fts: inserts
        .filter((w) => w.ftsTokens)
        .map((w) => ({ memoryId: w.memory.id, tokens: w.ftsTokens, context: w.contextTokens ?? "" })),
      events: inserts.flatMap((w) => w.history ?? [w.event]),
    });
    for (const p of patches) {
      const unchanged = p.when
        ? and(eq(memories.status, p.when.status), eq(memories.updatedAt, p.when.updatedAt))
        : undefined;
      statements.push(
        this.prepared(
          this.db
            .update(memories)
            .set(patchToRow(p.changes))
            .where(and(ownedBy(owner), eq(memories.id, p.id), unchanged)),
        ),
      );
      if (p.when) {
        if (p.ftsTokens !== undefined) throw new Error("a guarded patch cannot change FTS tokens");
        // A guarded patch records its event only if its UPDATE changed the row (changes() of the statement before).
        statements.push(this.conditionalEvent(owner, { memoryId: p.id, ...p.event }));
        continue;
      }
      if (p.ftsTokens !== undefined) {
        if (p.ftsTokens) statements.push(...this.ftsReplace(p.id, key, p.ftsTokens));
        else statements.push(this.ftsDelete(p.id, key));
      }
      statements.push(
        this.prepared(this.db.insert(memoryEvents).values(eventValues(owner, { memoryId: p.id, ...p.event }))),
      );
    }
    if (statements.length > 0) await this.d1.batch(statements);
  }

  private conditionalEvent(owner: Owner, e: MemoryEvent): D1PreparedStatement {
    const v = eventValues(owner, e);
    return this.d1
      .prepare(
        "INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, before, after, actor, at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0",
      )
      .bind(v.memoryId, v.accountId, v.namespace, v.userId, v.op, v.before, v.after, v.actor, v.at);
  }

  /** Drizzle builds the SQL; the raw D1 batch runs it, so FTS statements share the transaction. */
  private prepared(query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
    const { sql: text, params } = query.toSQL();
    return this.d1.prepare(text).bind(...params);
  }

  /**
   * New own tokens for a row, keeping its neighbour context; inserts the row when it has none (restore).
   * Rows are found by their row token (an FTS5 index lookup), then checked exactly.
   */
  private ftsReplace(id: string, key: string, tokens: string): D1PreparedStatement[] {
    return [
      this.d1
        .prepare(`UPDATE memories_fts SET tokens = ? WHERE ${FTS_ROW_WHERE}`)
        .bind(tokens, ftsRowMatch(id), id, key),
      // ?1 the owner's address, ?2 the tokens, ?3 the id, ?4 the row match.
      ...ftsBlockInsert(
        this.d1,
        key,
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

  private ftsDelete(id: string, key: string): D1PreparedStatement {
    return this.d1.prepare(`DELETE FROM memories_fts WHERE ${FTS_ROW_WHERE}`).bind(ftsRowMatch(id), id, key);
  }

  async get(owner: Owner, id: string): Promise<Memory | null> {
    return (await readRowsById(this.d1, owner, [id]))[0] ?? null;
  }

  getMany(owner: Owner, ids: string[]): Promise<Memory[]> {
    return readRowsById(this.d1, owner, ids);
  }

  async findByHash(owner: Owner, contentHash: string, agentId: string | null): Promise<Memory | null> {
    const agent = agentId === null ? isNull(memories.agentId) : eq(memories.agentId, agentId);
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(ownedBy(owner), eq(memories.contentHash, contentHash), eq(memories.status, "active"), agent))
      .orderBy(desc(memories.createdAt))
      .limit(1);
    return rows[0] ? rowToMemory(rows[0]) : null;
  }

  async findByExternalIds(owner: Owner, externalIds: string[]): Promise<Memory[]> {
    const parts = await Promise.all(
      jsonIdChunks(externalIds).map((json) =>
        this.db
          .select()
          .from(memories)
          .where(and(ownedBy(owner), inJson(memories.externalId, json))),
      ),
    );
    return parts.flat().map(rowToMemory);
  }

  async list(owner: Owner, filter: ListFilter): Promise<Memory[]> {
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(ownedBy(owner), ...listConditions(filter)))
      .orderBy(...listOrder(filter.order))
      .limit(filter.limit);
    return rows.map(rowToMemory);
  }

  async searchText(
    owner: Owner,
    tokens: string[],
    limit: number,
    statuses: MemoryStatus[] = ["active"],
  ): Promise<ScoredId[]> {
    return (await this.searchTextRows(owner, tokens, limit, statuses)).hits;
  }

  /** searchText with each hit's row from the same query (the join is there already): no second read. */
  async searchTextRows(
    owner: Owner,
    tokens: string[],
    limit: number,
    statuses: MemoryStatus[] = ["active"],
  ): Promise<LexicalRows> {
    const terms = ftsMatchExpression(tokens);
    if (!terms) return { hits: [], rows: [] };
    // Own tokens only: neighbour context (import) is for recall, not for duplicate and conflict checks.
    // The owner's block of rowids narrows the match to this user's rows (fts-owner-block.ts); the
    // owner_key column weighs 0 (columns: tokens, context, owner_key).
    const address = ownerAddress(owner);
    const { results: raw } = await this.d1
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

  searchLexical(owner: Owner, tokens: string[], o: LexicalSearch): Promise<LexicalHits> {
    return this.lexical.search(owner, tokens, o, o.rowsOf);
  }

  async history(owner: Owner, id: string): Promise<MemoryEvent[]> {
    const rows = await this.db
      .select()
      .from(memoryEvents)
      .where(this.eventsOf(owner, id))
      .orderBy(asc(memoryEvents.at), asc(memoryEvents.id));
    return rows.map(rowToEvent);
  }

  stats(owner: Owner, embeddingModel: string, filter?: StatsFilter): Promise<StatsSnapshot> {
    return statsQueries(this.db, owner, embeddingModel, filter);
  }

  touch(owner: Owner, ids: string[], at: number): Promise<void> {
    return touchRows(this.d1, owner, ids, at);
  }

  markIndexed(owner: Owner, ids: string[], model: string, at: number): Promise<void> {
    return markRowsIndexed(this.d1, owner, ids, model, at);
  }

  async listUnindexed(owner: Owner, model: string, limit: number): Promise<Memory[]> {
    const stale = or(
      isNull(memories.indexedAt),
      isNull(memories.embeddingModel),
      sql`${memories.embeddingModel} <> ${model}`,
    );
    const rows = await this.db
      .select()
      .from(memories)
      .where(and(ownedBy(owner), eq(memories.status, "active"), stale))
      .orderBy(asc(memories.createdAt))
      .limit(limit);
    return rows.map(rowToMemory);
  }

  async purge(owner: Owner, ids: string[], actor: string, at: number, tombstonedBefore?: number): Promise<void> {
    const key = ownerAddress(owner);
    const still =
      tombstonedBefore === undefined
        ? undefined
        : and(
            inArray(memories.status, ["deleted", "expired", "superseded"]),
            sql`coalesce(${memories.deletedAt}, ${memories.updatedAt}) <= ${tombstonedBefore}`,
          );
    for (const part of chunk(ids, 25)) {
      const statements = part.flatMap((id) => {
        // Everything after the DELETE runs only if the row is gone, i.e. the predicate held.
        const gone = sql`NOT EXISTS (SELECT 1 FROM memories WHERE id = ${id})`;
        const event = eventValues(owner, { memoryId: id, op: "purge", before: null, after: null, actor, at });
        return [
          this.prepared(this.db.delete(memories).where(and(ownedBy(owner), eq(memories.id, id), still))),
          this.d1.prepare(FTS_ROW_PURGE).bind(ftsRowMatch(id), id, key, id),
          this.prepared(
            this.db
              .update(memoryEvents)
              .set({ before: null, after: null })
              .where(and(this.eventsOf(owner, id), gone)),
          ),
          this.d1
            .prepare(
              "INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, before, after, actor, at) SELECT ?, ?, ?, ?, ?, NULL, NULL, ?, ? WHERE NOT EXISTS (SELECT 1 FROM memories WHERE id = ?)",
            )
            .bind(event.memoryId, event.accountId, event.namespace, event.userId, event.op, event.actor, event.at, id),
        ];
      });
      await this.d1.batch(statements);
    }
  }

  // Lifecycle pages and updates: the queries live in d1-lifecycle-queries.ts.
  listExpiring(owner: Owner, now: number, limit: number) {
    return lifecycle.listExpiring(this.db, owner, now, limit);
  }
  listRetentionExpired(owner: Owner, rule: RetentionRule, createdBefore: number, limit: number) {
    return lifecycle.listRetentionExpired(this.db, owner, rule, createdBefore, limit);
  }
  listTombstones(owner: Owner, cutoff: number, limit: number) {
    return lifecycle.listTombstones(this.db, owner, cutoff, limit);
  }
  listActivePage(owner: Owner, page: ActivePage) {
    return lifecycle.listActivePage(this.db, owner, page);
  }
  listOtherModel(owner: Owner, model: string, limit: number) {
    return lifecycle.listOtherModel(this.db, owner, model, limit);
  }
  listDecayDue(owner: Owner, cutoff: number, limit: number) {
    return lifecycle.listDecayDue(this.db, owner, cutoff, limit);
  }
  setDecayedImportance(owner: Owner, updates: { id: string; importance: number }[], at: number) {
    return lifecycle.setDecayedImportance(this.d1, this.db, owner, updates, at);
  }
  markConsolidated(owner: Owner, ids: string[], at: number) {
    return lifecycle.markConsolidated(this.db, owner, ids, at);
  }

  async weeklyCounts(owner: Owner, since: number): Promise<WeeklyCount[]> {
    // A literal divisor: a bound JS number arrives as REAL and would make the division fractional.
    const week = sql<number>`CAST(${memories.createdAt} / ${sql.raw(String(WEEK_MS))} AS INTEGER)`;
    const rows = await this.db
      .select({ week, category: memories.category, count: sql<number>`count(*)` })
      .from(memories)
      .where(and(ownedBy(owner), gte(memories.createdAt, since)))
      .groupBy(week, memories.category);
    return rows.map((r) => ({ week: Number(r.week), category: r.category, count: Number(r.count) }));
  }

  pendingLinks(owner: Owner, prefix: string): Promise<LinkRow[]> {
    return links.pendingLinks(this.db, owner, prefix);
  }

  setLinks(owner: Owner, updates: LinkRow[]): Promise<void> {
    return links.setLinks(this.d1, this.db, owner, updates);
  }
}

/** `column IN` the values of a JSON array bound as one parameter (storage/d1-bulk-rows.ts). */
function inJson(column: SQLiteColumn, json: string): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${json}))`;
}

function listConditions(f: ListFilter): (SQL | undefined)[] {
  const tagConds = (f.tags ?? []).map(
    (t) => sql`EXISTS (SELECT 1 FROM json_each(${memories.tags}) WHERE json_each.value = ${t})`,
  );
  return [
    f.statuses === "all" ? undefined : inArray(memories.status, f.statuses),
    f.category ? eq(memories.category, f.category) : undefined,
    f.memoryType ? eq(memories.memoryType, f.memoryType) : undefined,
    f.agentId ? eq(memories.agentId, f.agentId) : undefined,
    f.visibleToAgent === null ? isNull(memories.agentId) : undefined,
    typeof f.visibleToAgent === "string"
      ? or(isNull(memories.agentId), eq(memories.agentId, f.visibleToAgent))
      : undefined,
    f.createdBefore !== undefined ? lt(memories.createdAt, f.createdBefore) : undefined,
    f.minPriorityNumber !== undefined ? sql`${memories.priority} >= ${f.minPriorityNumber}` : undefined,
    f.maxPriorityNumber !== undefined ? sql`${memories.priority} <= ${f.maxPriorityNumber}` : undefined,
    f.source !== undefined ? sourceCondition(f.source) : undefined,
    f.supersededBy !== undefined ? eq(memories.supersededBy, f.supersededBy) : undefined,
    cursorCondition(f),
    ...tagConds,
  ];
}

/**
 * Saved from `source`, or derived from it: derived_from names the source itself (`source:<ref>`,
 * written by merges and transcript extraction) or a memory of this user saved from it.
 */
function sourceCondition(source: string): SQL {
  return or(
    eq(memories.source, source),
    sql`EXISTS (SELECT 1 FROM json_each(${memories.derivedFrom}) WHERE json_each.value = ${sourceRef(source)})`,
    sql`EXISTS (SELECT 1 FROM memories d WHERE d.source = ${source} AND d.account_id = ${memories.accountId} AND d.namespace = ${memories.namespace} AND d.user_id = ${memories.userId} AND EXISTS (SELECT 1 FROM json_each(${memories.derivedFrom}) WHERE json_each.value = d.id))`,
  )!;
}

function cursorCondition(f: ListFilter): SQL | undefined {
  if (!f.cursor) return undefined;
  const { key, id } = f.cursor;
  if (f.order === "oldest")
    return or(gt(memories.createdAt, key), and(eq(memories.createdAt, key), gt(memories.id, id)));
  if (f.order === "priority")
    return or(gt(memories.priority, key), and(eq(memories.priority, key), lt(memories.id, id)));
  return or(lt(memories.createdAt, key), and(eq(memories.createdAt, key), lt(memories.id, id)));
}

function listOrder(order: ListFilter["order"]) {
  if (order === "oldest") return [asc(memories.createdAt), asc(memories.id)];
  if (order === "priority") return [asc(memories.priority), desc(memories.id)];
  return [desc(memories.createdAt), desc(memories.id)];
}
