/**
 * @module storage/memories/d1-stats
 * Aggregate counts for memory_stats: by status, category, priority and type, plus index sync.
 */
import { and, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { Owner, StatsFilter, StatsSnapshot } from "../../memory/types";
import { ownedBy } from "../d1-owner-scope";
import { memories } from "../schema";

type Row = { k: string | number | null; n: number };

function toRecord(rows: Row[]): Record<string, number> {
  return Object.fromEntries(rows.map((r) => [String(r.k), Number(r.n)]));
}

/** Agent conditions: visible to an agent (shared or its own; null = shared only) and/or private to one agent. */
function agentConditions(filter: StatsFilter): (SQL | undefined)[] {
  const { visibleToAgent, agentId } = filter;
  return [
    visibleToAgent === undefined
      ? undefined
      : visibleToAgent === null
        ? isNull(memories.agentId)
        : or(isNull(memories.agentId), eq(memories.agentId, visibleToAgent)),
    agentId !== undefined ? eq(memories.agentId, agentId) : undefined,
  ];
}

export async function statsQueries(
  db: DrizzleD1Database,
  owner: Owner,
  model: string,
  filter: StatsFilter = {},
): Promise<StatsSnapshot> {
  const own = and(ownedBy(owner), ...agentConditions(filter));
  const active = and(own, eq(memories.status, "active"));
  const group = (
    col: typeof memories.status | typeof memories.category | typeof memories.priority | typeof memories.memoryType,
    where = active,
  ) => db.select({ k: col, n: sql<number>`count(*)` }).from(memories).where(where).groupBy(col);
  const [byStatus, byCategory, byPriority, byType, span, sync] = await db.batch([
    group(memories.status, own),
    group(memories.category),
    group(memories.priority),
    group(memories.memoryType),
    db
      .select({
        oldest: sql<number | null>`min(${memories.createdAt})`,
        newest: sql<number | null>`max(${memories.createdAt})`,
      })
      .from(memories)
      .where(active),
    db
      .select({
        indexed: sql<number>`coalesce(sum(case when ${memories.indexedAt} is not null and ${memories.embeddingModel} = ${model} then 1 else 0 end), 0)`,
        unindexed: sql<number>`coalesce(sum(case when ${memories.indexedAt} is null then 1 else 0 end), 0)`,
        other: sql<number>`coalesce(sum(case when ${memories.indexedAt} is not null and ${memories.embeddingModel} <> ${model} then 1 else 0 end), 0)`,
      })
      .from(memories)
      .where(active),
  ]);
  const statusCounts = toRecord(byStatus as Row[]);
  return {
    total: Object.values(statusCounts).reduce((a, b) => a + b, 0),
    byStatus: statusCounts,
    byCategory: toRecord(byCategory as Row[]),
    byPriority: toRecord(byPriority as Row[]),
    byType: toRecord(byType as Row[]),
    oldest: span[0]?.oldest ?? null,
    newest: span[0]?.newest ?? null,
    activeIndexed: Number(sync[0]?.indexed ?? 0),
    activeUnindexed: Number(sync[0]?.unindexed ?? 0),
    activeOtherModel: Number(sync[0]?.other ?? 0),
  };
}
