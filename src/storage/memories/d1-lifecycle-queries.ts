/**
 * @module storage/memories/d1-lifecycle-queries
 * D1 queries of the lifecycle jobs: per-owner pages for D1MemoryRepo, and D1LifecycleScan, the
 * cross-user "who needs work" queries the cron runs. Every query is bounded (LIMIT) and written so
 * SQLite can answer it from an index: the partial indexes of schema.ts hold only rows a job still has
 * to visit, and SQLite uses a partial index only when the query repeats its WHERE terms literally —
 * hence the literal `status = 'active'` fragments below instead of bound parameters.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { LifecycleJobName, RetentionRule } from "../../memory/lifecycle/lifecycle-types";
import { ownerAddress } from "../../memory/owner-address";
import type { ActivePage, DecayCandidate, DueOwner, DueQuery, LifecycleScan } from "../../memory/ports";
import type { Memory, Owner } from "../../memory/types";
import { chunk } from "../d1-bulk-rows";
import { ownedBy } from "../d1-owner-scope";
import { prepared } from "../d1-prepared";
import { memories } from "../schema";
import { tombstonedBy } from "./d1-tombstones";
import { rowToMemory } from "./memory-mapper";

/** Terms of the partial indexes, literally as schema.ts declares them. */
const ACTIVE = sql.raw("status = 'active'");
const DECAYABLE = sql.raw("status = 'active' AND access_count = 0 AND importance > 0.05");
/** Rows a cross-user scan reads at most per criterion, so one busy user cannot make the cron slow. */
const SCAN_ROWS = 2000;
const UPDATE_CHUNK = 50;
const PARAM_CHUNK = 90;

/** One owner's rows matching `conditions` (undefined terms are left out), at most `limit`, in `order`. */
async function ownedRows(
  db: DrizzleD1Database,
  owner: Owner,
  conditions: (SQL | undefined)[],
  limit: number,
  order: SQL[] = [],
): Promise<Memory[]> {
  const rows = await db
    .select()
    .from(memories)
    .where(and(ownedBy(owner), ...conditions))
    .orderBy(...order)
    .limit(limit);
  return rows.map(rowToMemory);
}

export function listExpiring(db: DrizzleD1Database, owner: Owner, now: number, limit: number): Promise<Memory[]> {
  const conditions = [ACTIVE, isNotNull(memories.expiresAt), lte(memories.expiresAt, now)];
  return ownedRows(db, owner, conditions, limit, [asc(memories.expiresAt)]);
}

/**
 * The terms of one retention rule, once: rendered for drizzle (listRetentionExpired) and as the raw
 * WHERE clause of the cron's scan (dueCriteria), whose column names these are.
 */
function retentionTerms(rule: RetentionRule, createdBefore: number): { term: string; value: unknown }[] {
  return [
    ...(rule.category !== undefined ? [{ term: "category =", value: rule.category }] : []),
    ...(rule.memoryType !== undefined ? [{ term: "memory_type =", value: rule.memoryType }] : []),
    { term: "created_at <", value: createdBefore },
    ...(rule.keepPriorityAtMost !== undefined ? [{ term: "priority >", value: rule.keepPriorityAtMost }] : []),
  ];
}

export function listRetentionExpired(
  db: DrizzleD1Database,
  owner: Owner,
  rule: RetentionRule,
  createdBefore: number,
  limit: number,
): Promise<Memory[]> {
  const terms = retentionTerms(rule, createdBefore).map(({ term, value }) => sql`${sql.raw(term)} ${value}`);
  return ownedRows(db, owner, [ACTIVE, ...terms], limit, [asc(memories.createdAt)]);
}

export function listTombstones(db: DrizzleD1Database, owner: Owner, cutoff: number, limit: number): Promise<Memory[]> {
  return ownedRows(db, owner, [tombstonedBy(cutoff)], limit);
}

export function listActivePage(db: DrizzleD1Database, owner: Owner, page: ActivePage): Promise<Memory[]> {
  const a = page.after;
  const conditions = [
    ACTIVE,
    page.pending === "index" ? isNull(memories.indexedAt) : undefined,
    page.pending === "consolidation" ? isNull(memories.consolidatedAt) : undefined,
    page.pending === "entities" ? isNull(memories.entitiesAt) : undefined,
    a
      ? or(gt(memories.createdAt, a.createdAt), and(eq(memories.createdAt, a.createdAt), gt(memories.id, a.id)))
      : undefined,
  ];
  return ownedRows(db, owner, conditions, page.limit, [asc(memories.createdAt), asc(memories.id)]);
}

export function listOtherModel(db: DrizzleD1Database, owner: Owner, model: string, limit: number): Promise<Memory[]> {
  const conditions = [
    ACTIVE,
    isNotNull(memories.indexedAt),
    or(lt(memories.embeddingModel, model), gt(memories.embeddingModel, model)),
  ];
  return ownedRows(db, owner, conditions, limit);
}

export async function listDecayDue(
  db: DrizzleD1Database,
  owner: Owner,
  cutoff: number,
  limit: number,
): Promise<DecayCandidate[]> {
  const due = or(and(isNull(memories.decayedAt), lte(memories.createdAt, cutoff)), lte(memories.decayedAt, cutoff));
  return db
    .select({
      id: memories.id,
      importance: memories.importance,
      createdAt: memories.createdAt,
      decayedAt: memories.decayedAt,
    })
    .from(memories)
    .where(and(ownedBy(owner), DECAYABLE, due))
    .limit(limit);
}

export async function setDecayedImportance(
  d1: D1Database,
  db: DrizzleD1Database,
  owner: Owner,
  updates: { id: string; importance: number }[],
  at: number,
): Promise<void> {
  for (const part of chunk(updates, UPDATE_CHUNK)) {
    const statements = part.map((u) =>
      prepared(
        d1,
        db
          .update(memories)
          .set({ importance: u.importance, decayedAt: at })
          .where(and(ownedBy(owner), eq(memories.id, u.id))),
      ),
    );
    await d1.batch(statements);
  }
}

export async function markConsolidated(db: DrizzleD1Database, owner: Owner, ids: string[], at: number): Promise<void> {
  for (const part of chunk([...new Set(ids)], PARAM_CHUNK)) {
    await db
      .update(memories)
      .set({ consolidatedAt: at })
      .where(and(ownedBy(owner), inArray(memories.id, part)));
  }
}

function retentionCondition(rule: RetentionRule, createdBefore: number): { condition: string; params: unknown[] } {
  const terms = retentionTerms(rule, createdBefore);
  return {
    condition: ["status = 'active'", ...terms.map((t) => `${t.term} ?`)].join(" AND "),
    params: terms.map((t) => t.value),
  };
}

export interface DueCriterion {
  job: LifecycleJobName;
  /** WHERE clause an index answers without reading unrelated rows. */
  where: string;
  params: unknown[];
  /**
   * Forced for the partial indexes: without ANALYZE statistics SQLite would rather walk a status
   * index over every active row. INDEXED BY also makes the query fail loudly if the index is gone.
   */
  index?: string;
}

/** Each "who needs work" criterion of the cron's scan. */
export function dueCriteria(q: DueQuery): DueCriterion[] {
  const decayable = "status = 'active' AND access_count = 0 AND importance > 0.05";
  return [
    { job: "expire", where: "status = 'active' AND expires_at <= ?", params: [q.now] },
    ...q.retention.map(({ rule, createdBefore }): DueCriterion => {
      const { condition, params } = retentionCondition(rule, createdBefore);
      return { job: "expire", where: condition, params };
    }),
    { job: "purge", where: "status IN ('deleted', 'expired') AND deleted_at <= ?", params: [q.purgeCutoff] },
    // A deleted quarantined memory (it keeps its quarantine); one under review has no deleted_at.
    { job: "purge", where: "status = 'quarantined' AND deleted_at <= ?", params: [q.purgeCutoff] },
    {
      job: "purge",
      where: "status IN ('deleted', 'expired', 'superseded') AND deleted_at IS NULL AND updated_at <= ?",
      params: [q.purgeCutoff],
    },
    { job: "repair", where: "status = 'active' AND indexed_at IS NULL", params: [], index: "memories_unindexed_idx" },
    {
      job: "migrate",
      where: "status = 'active' AND indexed_at IS NOT NULL AND embedding_model < ?",
      params: [q.model],
      index: "memories_model_idx",
    },
    {
      job: "migrate",
      where: "status = 'active' AND indexed_at IS NOT NULL AND embedding_model > ?",
      params: [q.model],
      index: "memories_model_idx",
    },
    {
      job: "decay",
      where: `${decayable} AND decayed_at IS NULL AND created_at <= ?`,
      params: [q.decayCutoff],
      index: "memories_decay_due_idx",
    },
    {
      job: "decay",
      where: `${decayable} AND decayed_at <= ?`,
      params: [q.decayCutoff],
      index: "memories_decay_due_idx",
    },
    {
      job: "consolidate",
      where: "status = 'active' AND consolidated_at IS NULL",
      params: [],
      index: "memories_unconsolidated_idx",
    },
    // Memories stored before entities existed, or whose entities could not be stored with them.
    {
      job: "entities",
      where: "status = 'active' AND entities_at IS NULL",
      params: [],
      index: "memories_entities_pending_idx",
    },
  ];
}

/** The owners of at most SCAN_ROWS rows matching one criterion. */
export function ownersSql(c: DueCriterion): string {
  return `SELECT DISTINCT account_id AS a, namespace AS n, user_id AS u FROM
    (SELECT account_id, namespace, user_id FROM memories${c.index ? ` INDEXED BY ${c.index}` : ""} WHERE ${c.where} LIMIT ${SCAN_ROWS}) LIMIT ?`;
}

export class D1LifecycleScan implements LifecycleScan {
  constructor(private readonly d1: D1Database) {}

  async ownersDue(q: DueQuery, limit: number): Promise<DueOwner[]> {
    const criteria = dueCriteria(q);
    const results = await this.d1.batch<{ a: string; n: string; u: string }>(
      criteria.map((c) => this.d1.prepare(ownersSql(c)).bind(...c.params, limit)),
    );
    const byOwner = new Map<string, DueOwner>();
    results.forEach((result, i) => {
      for (const row of result.results) {
        const owner = { accountId: row.a, namespace: row.n, userId: row.u };
        const key = ownerAddress(owner);
        const due = byOwner.get(key) ?? { ...owner, jobs: [] };
        if (!due.jobs.includes(criteria[i].job)) due.jobs.push(criteria[i].job);
        byOwner.set(key, due);
      }
    });
    return [...byOwner.values()].slice(0, limit);
  }

  async indexSync(model: string, cap: number): Promise<{ unindexed: number; otherModel: number; capped: boolean }> {
    const row = await this.d1
      .prepare(`SELECT
      (SELECT count(*) FROM (SELECT 1 FROM memories INDEXED BY memories_unindexed_idx WHERE status = 'active' AND indexed_at IS NULL LIMIT ?1)) AS unindexed,
      (SELECT count(*) FROM (SELECT 1 FROM memories INDEXED BY memories_model_idx WHERE status = 'active' AND indexed_at IS NOT NULL AND embedding_model < ?2 LIMIT ?1)) +
      (SELECT count(*) FROM (SELECT 1 FROM memories INDEXED BY memories_model_idx WHERE status = 'active' AND indexed_at IS NOT NULL AND embedding_model > ?2 LIMIT ?1)) AS other`)
      .bind(cap + 1, model)
      .first<{ unindexed: number; other: number }>();
    const unindexed = Math.min(cap, Number(row?.unindexed ?? 0));
    const otherModel = Math.min(cap, Number(row?.other ?? 0));
    return { unindexed, otherModel, capped: Number(row?.unindexed ?? 0) > cap || Number(row?.other ?? 0) > cap };
  }
}
