/**
 * @module storage/entities/d1-entity-reads
 * Reads of an owner's entity rows (migration 0012): a page of entities by how many active memories
 * name them, one entity's detail, and recall's two lookups (memories naming an entity with a given
 * key; memories sharing an entity with given ones). Every statement is owner-scoped on each table it
 * reads, and counts only memories that are active, so a superseded, deleted or expired memory's
 * mentions drop out with it (and come back on restore). The views (a page, one entity, relations)
 * also count only memories the caller's agent may read (shared ones and its own; every agent's when
 * the call names none): an entity only another agent's private memories name is not shown, a
 * relation such a memory states is left out, and so is another name only such a memory holds. An entity no shown memory names, and no relation
 * imported as given, is not shown at all, whatever its keys still say.
 */

import type {
  Entity,
  EntityDetail,
  EntityKind,
  EntityListOptions,
  EntityPage,
  EntityRelationView,
} from "../../memory/entities/entity-types";
import { ENTITY_LIMITS, USER } from "../../memory/entities/entity-types";
import type { EntityHit } from "../../memory/ports";
import type { Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownerOf } from "./d1-entity-owner";

/**
 * `mem` is visible to the agent bound as parameter `agent` (a memory shared or its own; null: a call
 * naming no agent sees every agent's, as list_memories does).
 */
const VISIBLE = (agent: number) => `(?${agent} IS NULL OR mem.agent_id IS NULL OR mem.agent_id = ?${agent})`;

/**
 * `alias.memory_id` is an active memory row of the owner (by primary key, owner checked) and, when
 * `agent` names a parameter, one that agent may read.
 */
const ACTIVE_MEMORY = (alias: string, agent?: number) =>
  `EXISTS (SELECT 1 FROM memories mem WHERE mem.id = ${alias}.memory_id AND +mem.account_id = ?1 AND +mem.namespace = ?2 AND +mem.user_id = ?3 AND +mem.status = 'active'${agent ? ` AND ${VISIBLE(agent)}` : ""})`;

/**
 * Key `k` of entity `e` may be shown to the agent bound as parameter `agent`: always its name, and
 * to a call naming no agent every other name; to an agent, another name only when an active memory
 * that agent may read and that names the entity holds it (case aside). Other names are stored per
 * entity, not per memory, so this is how "my cousin", said only in another agent's private memory,
 * stays that agent's; a name no memory holds word for word (an import's, a speaker's "Caroline's
 * sister") is shown to a call naming no agent only.
 */
const LABEL_SEEN = (k: string, e: string, agent: number) =>
  `(?${agent} IS NULL OR ${k}.label = ${e}.name OR EXISTS (SELECT 1 FROM entity_mentions ls JOIN memories mem ON mem.id = ls.memory_id AND +mem.account_id = ?1 AND +mem.namespace = ?2 AND +mem.user_id = ?3 AND +mem.status = 'active' AND ${VISIBLE(agent)} WHERE ${ownerOf("ls")} AND ls.entity_id = ${e}.id AND instr(lower(mem.content), lower(${k}.label)) > 0))`;

/** A relation of entity `id` imported as given (stated by no memory): it keeps the entity shown. */
const GIVEN_RELATION = (id: string) =>
  `EXISTS (SELECT 1 FROM entity_relations r WHERE ${ownerOf("r")} AND r.memory_id = '' AND (r.subject_id = ${id} OR r.object_id = ${id}))`;

/**
 * The owner's entities with their mention counts by active memories the agent ?7 may read, those
 * named by such a memory or with a relation imported as given; ?4/?5 are the keyset (count, id)
 * after which the page starts.
 */
const LIST = `WITH counted AS (
    SELECT e.id, e.name, e.kind, e.updated_at,
      (SELECT count(*) FROM entity_mentions mn WHERE ${ownerOf("mn")} AND mn.entity_id = e.id AND ${ACTIVE_MEMORY("mn", 7)}) AS n,
      (SELECT group_concat(k.label, char(31)) FROM entity_keys k WHERE ${ownerOf("k")} AND k.entity_id = e.id AND ${LABEL_SEEN("k", "e", 7)}) AS labels
    FROM entities e WHERE ${ownerOf("e")})
  SELECT * FROM counted
  WHERE (n > 0 OR ${GIVEN_RELATION("counted.id")})
    AND (n < ?4 OR (n = ?4 AND id > ?5))
  ORDER BY n DESC, id LIMIT ?6`;

/** The entity with the key ?4, as LIST would show it to the agent ?5 (null when LIST would not). */
const BY_KEY = `WITH found AS (
    SELECT e.id, e.name, e.kind, e.updated_at, (lower(e.name) = ?4) AS exact,
      (SELECT count(*) FROM entity_mentions mn WHERE ${ownerOf("mn")} AND mn.entity_id = e.id AND ${ACTIVE_MEMORY("mn", 5)}) AS n,
      (SELECT group_concat(k2.label, char(31)) FROM entity_keys k2 WHERE ${ownerOf("k2")} AND k2.entity_id = e.id AND ${LABEL_SEEN("k2", "e", 5)}) AS labels
    FROM entity_keys k JOIN entities e ON ${ownerOf("e")} AND e.id = k.entity_id
    WHERE ${ownerOf("k")} AND k.key = ?4 AND ${LABEL_SEEN("k", "e", 5)})
  SELECT * FROM found WHERE n > 0 OR ${GIVEN_RELATION("found.id")}
  ORDER BY exact DESC, n DESC, id LIMIT 1`;

/** Relations of entity ?4: imported as given, or stated by an active memory the agent ?5 may read. */
const RELATIONS = `SELECT r.subject_id, r.predicate, r.object_id, r.memory_id,
    coalesce((SELECT s.name FROM entities s WHERE ${ownerOf("s")} AND s.id = r.subject_id), r.subject_id) AS subject_name,
    coalesce((SELECT o.name FROM entities o WHERE ${ownerOf("o")} AND o.id = r.object_id), r.object_id) AS object_name
  FROM entity_relations r WHERE ${ownerOf("r")} AND (r.subject_id = ?4 OR r.object_id = ?4)
    AND (r.memory_id = '' OR ${ACTIVE_MEMORY("r", 5)}) LIMIT ${ENTITY_LIMITS.detailRelations}`;

/** The relations of the entities ?4 (JSON array) names, on either side, as RELATIONS reads one entity's (agent ?6). */
const RELATIONS_OF = `SELECT r.subject_id, r.predicate, r.object_id, r.memory_id,
    coalesce((SELECT s.name FROM entities s WHERE ${ownerOf("s")} AND s.id = r.subject_id), r.subject_id) AS subject_name,
    coalesce((SELECT o.name FROM entities o WHERE ${ownerOf("o")} AND o.id = r.object_id), r.object_id) AS object_name
  FROM entity_relations r WHERE ${ownerOf("r")}
    AND (r.subject_id IN (SELECT value FROM json_each(?4)) OR r.object_id IN (SELECT value FROM json_each(?4)))
    AND (r.memory_id = '' OR ${ACTIVE_MEMORY("r", 6)}) ORDER BY r.id LIMIT ?5`;

/** Active memories naming entity ?4 that the agent ?5 may read, newest first. */
const MEMORY_IDS = `SELECT mn.memory_id FROM entity_mentions mn JOIN memories mem ON mem.id = mn.memory_id
    AND +mem.account_id = ?1 AND +mem.namespace = ?2 AND +mem.user_id = ?3 AND +mem.status = 'active' AND ${VISIBLE(5)}
  WHERE ${ownerOf("mn")} AND mn.entity_id = ?4 ORDER BY mem.created_at DESC LIMIT ${ENTITY_LIMITS.detailMemories}`;

/**
 * Active memories naming an entity one of the keys ?4 (JSON array) finds, through entities at most
 * ?6 memories name (a name in most memories, such as the person a whole conversation is addressed
 * to, tells nothing apart), rarest entity first, then newest.
 */
const NAMING = `WITH found AS (
    SELECT DISTINCT k.entity_id FROM entity_keys k WHERE ${ownerOf("k")} AND k.key IN (SELECT value FROM json_each(?4))),
  sized AS (
    SELECT entity_id, (SELECT count(*) FROM (SELECT 1 FROM entity_mentions c WHERE ${ownerOf("c")} AND c.entity_id = found.entity_id LIMIT ?6 + 1)) AS n FROM found)
  SELECT mn.memory_id, mn.entity_id FROM sized
  JOIN entity_mentions mn ON ${ownerOf("mn")} AND mn.entity_id = sized.entity_id
  JOIN memories mem ON mem.id = mn.memory_id AND +mem.account_id = ?1 AND +mem.namespace = ?2 AND +mem.user_id = ?3 AND +mem.status = 'active'
  WHERE sized.n <= ?6
  ORDER BY sized.n, mem.created_at DESC LIMIT ?5`;

/**
 * Active memories other than ?4 naming an entity one of ?4 names, through entities at most ?6
 * memories name (a hub such as the user's partner would bring everything), rarest entity first.
 */
const SHARED = `WITH seeds AS (
    SELECT DISTINCT s.entity_id FROM entity_mentions s WHERE ${ownerOf("s")} AND s.memory_id IN (SELECT value FROM json_each(?4))),
  sized AS (
    SELECT entity_id, (SELECT count(*) FROM (SELECT 1 FROM entity_mentions c WHERE ${ownerOf("c")} AND c.entity_id = seeds.entity_id LIMIT ?6 + 1)) AS n FROM seeds)
  SELECT mn.memory_id, mn.entity_id FROM sized
  JOIN entity_mentions mn ON ${ownerOf("mn")} AND mn.entity_id = sized.entity_id
  WHERE sized.n <= ?6 AND mn.memory_id NOT IN (SELECT value FROM json_each(?4)) AND ${ACTIVE_MEMORY("mn")}
  ORDER BY sized.n, mn.memory_id LIMIT ?5`;

/** Mentions per entity above which recall's lookups skip it (the direct one and the second hop). */
export const HUB_MENTIONS = 40;

/** The agent bound to VISIBLE: null (every agent's memories) when the call names none. */
const agentParam = (agent: string | undefined): string | null => agent ?? null;

interface EntityRow {
  id: string;
  name: string;
  kind: string;
  updated_at: number;
  n: number;
  labels: string | null;
}

function toEntity(row: EntityRow): Entity {
  const aliases = (row.labels ?? "").split("\u001f").filter((l) => l.length > 0 && l !== row.name);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as EntityKind,
    aliases: [...new Set(aliases)],
    memoryCount: Number(row.n),
    updatedAt: Number(row.updated_at),
  };
}

/** A page cursor: the last entity's count and id. */
const CURSOR = /^(\d{1,9}):(en_[0-9a-f]{20})$/;

export async function listEntities(d1: D1Database, owner: Owner, options: EntityListOptions): Promise<EntityPage> {
  const m = options.cursor ? CURSOR.exec(options.cursor) : null;
  const [count, after] = m ? [Number(m[1]), m[2]] : [Number.MAX_SAFE_INTEGER, ""];
  const { results } = await d1
    .prepare(LIST)
    .bind(
      owner.accountId,
      owner.namespace,
      owner.userId,
      count,
      after,
      options.limit + 1,
      agentParam(options.visibleToAgent),
    )
    .all<EntityRow>();
  const page = results.slice(0, options.limit).map(toEntity);
  const last = page.at(-1);
  return {
    entities: page,
    nextCursor: results.length > options.limit && last ? `${last.memoryCount}:${last.id}` : null,
  };
}

interface RelationRow {
  subject_id: string;
  predicate: string;
  object_id: string;
  memory_id: string;
  subject_name: string;
  object_name: string;
}

function toRelation(r: RelationRow): EntityRelationView {
  return {
    subjectId: r.subject_id,
    predicate: r.predicate,
    objectId: r.object_id,
    memoryId: r.memory_id === "" ? null : r.memory_id,
    subjectName: r.subject_id === USER ? USER : r.subject_name,
    objectName: r.object_id === USER ? USER : r.object_name,
  };
}

export async function describeEntity(
  d1: D1Database,
  owner: Owner,
  key: string,
  visibleToAgent?: string,
): Promise<EntityDetail | null> {
  const o = [owner.accountId, owner.namespace, owner.userId];
  const agent = agentParam(visibleToAgent);
  const row = await d1
    .prepare(BY_KEY)
    .bind(...o, key, agent)
    .first<EntityRow>();
  if (!row) return null;
  const [relations, memories] = await d1.batch([
    d1.prepare(RELATIONS).bind(...o, row.id, agent),
    d1.prepare(MEMORY_IDS).bind(...o, row.id, agent),
  ]);
  return {
    ...toEntity(row),
    relations: (relations.results as RelationRow[]).map(toRelation),
    memoryIds: (memories.results as { memory_id: string }[]).map((r) => r.memory_id),
  };
}

const toHits = (rows: { memory_id: string; entity_id: string }[]): EntityHit[] =>
  rows.map((r) => ({ memoryId: r.memory_id, entityId: r.entity_id }));

export async function memoriesNaming(
  d1: D1Database,
  owner: Owner,
  keys: string[],
  limit: number,
): Promise<EntityHit[]> {
  if (keys.length === 0 || limit <= 0) return [];
  const [json] = jsonIdChunks(keys);
  const { results } = await d1
    .prepare(NAMING)
    .bind(owner.accountId, owner.namespace, owner.userId, json, limit, HUB_MENTIONS)
    .all<{ memory_id: string; entity_id: string }>();
  return toHits(results);
}

export async function sharedEntityMemories(
  d1: D1Database,
  owner: Owner,
  memoryIds: string[],
  limit: number,
): Promise<EntityHit[]> {
  if (memoryIds.length === 0 || limit <= 0) return [];
  const [json] = jsonIdChunks(memoryIds);
  const { results } = await d1
    .prepare(SHARED)
    .bind(owner.accountId, owner.namespace, owner.userId, json, limit, HUB_MENTIONS)
    .all<{ memory_id: string; entity_id: string }>();
  return toHits(results);
}

export async function relationsOf(
  d1: D1Database,
  owner: Owner,
  entityIds: string[],
  limit: number,
  visibleToAgent?: string,
): Promise<EntityRelationView[]> {
  if (entityIds.length === 0 || limit <= 0) return [];
  const [json] = jsonIdChunks(entityIds);
  const { results } = await d1
    .prepare(RELATIONS_OF)
    .bind(owner.accountId, owner.namespace, owner.userId, json, limit, agentParam(visibleToAgent))
    .all<RelationRow>();
  return results.map(toRelation);
}
