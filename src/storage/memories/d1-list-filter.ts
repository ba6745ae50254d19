/**
 * @module storage/memories/d1-list-filter
 * A ListFilter (memory/types.ts) as drizzle conditions and order on `memories`: statuses, category,
 * type, agent visibility, creation time, priority, source (saved from it or derived from it), tags,
 * and the keyset cursor of the chosen order. The owner's condition is the caller's (d1-owner-scope.ts).
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { ListFilter } from "../../memory/types";
import { sourceRef } from "../../memory/write/merge";
import { memories } from "../schema";

/** The filter's conditions; undefined where a field is not set. */
export function listConditions(f: ListFilter): (SQL | undefined)[] {
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

/** The order a filter asks for, the id breaking ties as the cursor does. */
export function listOrder(order: ListFilter["order"]) {
  if (order === "oldest") return [asc(memories.createdAt), asc(memories.id)];
  if (order === "priority") return [asc(memories.priority), desc(memories.id)];
  return [desc(memories.createdAt), desc(memories.id)];
}
