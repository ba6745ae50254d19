/**
 * @module storage/entities/d1-entity-writes
 * The statements that keep an owner's entity rows (migration 0012) in step with its memories: what
 * a memory names (replacing what it named before), a graph imported as given, and what a purge
 * removes for good. Each call is one D1 batch; rows travel as JSON arrays (`json_each(?)`, one bound
 * parameter), so a statement binds at most five parameters whatever the batch's size. Every
 * statement names the owner's account, namespace and user; a mention or relation lands only for a
 * memory row of that owner.
 */
import { entityId, entityKey } from "../../memory/entities/entity-keys";
import type { EntityGraph, EntityInput, MemoryEntities, RelationInput } from "../../memory/entities/entity-types";
import { USER } from "../../memory/entities/entity-types";
import { cueOf } from "../../memory/entities/kind-cues";
import type { Owner } from "../../memory/types";
import { jsonChunks, jsonIdChunks } from "../d1-bulk-rows";
import { ownerIdsBinds, ownerIdsWhere } from "../d1-owner-scope";

const OWNER = "account_id = ?1 AND namespace = ?2 AND user_id = ?3";
/** The memory `value ->> 0` is a row of the owner's (any status: a mention follows its memory's status at read time). */
const OWNED_MEMORY =
  "EXISTS (SELECT 1 FROM memories m WHERE m.id = value ->> 0 AND +m.account_id = ?1 AND +m.namespace = ?2 AND +m.user_id = ?3)";

/** A kind is replaced only by one with a stronger cue (migration 0015), whichever write came first. */
const UPSERT_ENTITIES = `INSERT INTO entities (account_id, namespace, user_id, id, name, kind, kind_cue, created_at, updated_at)
  SELECT ?1, ?2, ?3, value ->> 0, value ->> 1, value ->> 2, value ->> 3, ?4, ?4 FROM json_each(?5) WHERE true
  ON CONFLICT (account_id, namespace, user_id, id) DO UPDATE SET updated_at = excluded.updated_at,
    kind = CASE WHEN excluded.kind_cue > entities.kind_cue THEN excluded.kind ELSE entities.kind END,
    kind_cue = max(entities.kind_cue, excluded.kind_cue)`;
const INSERT_KEYS = `INSERT OR IGNORE INTO entity_keys (account_id, namespace, user_id, key, entity_id, label)
  SELECT ?1, ?2, ?3, value ->> 0, value ->> 1, value ->> 2 FROM json_each(?4)`;
const INSERT_MENTIONS = `INSERT OR IGNORE INTO entity_mentions (account_id, namespace, user_id, memory_id, entity_id)
  SELECT ?1, ?2, ?3, value ->> 0, value ->> 1 FROM json_each(?4) WHERE ${OWNED_MEMORY}`;
const INSERT_RELATIONS = `INSERT OR IGNORE INTO entity_relations (account_id, namespace, user_id, memory_id, subject_id, predicate, object_id)
  SELECT ?1, ?2, ?3, value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?4) WHERE value ->> 0 = '' OR ${OWNED_MEMORY}`;
const MARK_EXTRACTED = `UPDATE memories SET entities_at = ? WHERE ${ownerIdsWhere("memories")}`;

/** The memory ids ?4 (a JSON array), all of them. */
const ALL = "(SELECT value FROM json_each(?4))";
/** The memory ids ?4 whose row is gone (a purge's predicate held): a restored or kept memory keeps its mentions. */
const GONE =
  "(SELECT value FROM json_each(?4) WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = value AND +m.account_id = ?1 AND +m.namespace = ?2 AND +m.user_id = ?3))";

/**
 * What removing the mentions and relations of the memories in `set` takes, in order: first the
 * entities only they name or relate (their keys, then their rows), so no name is left behind that
 * no memory holds; then the memories' mentions and relations.
 */
function removalSql(set: string, kept = ""): string[] {
  const orphans = `SELECT c.id FROM (
    SELECT entity_id AS id FROM entity_mentions WHERE ${OWNER} AND memory_id IN ${set}
    UNION SELECT subject_id FROM entity_relations WHERE ${OWNER} AND memory_id IN ${set}
    UNION SELECT object_id FROM entity_relations WHERE ${OWNER} AND memory_id IN ${set}) c
  WHERE NOT EXISTS (SELECT 1 FROM entity_mentions o WHERE o.account_id = ?1 AND o.namespace = ?2 AND o.user_id = ?3
      AND o.entity_id = c.id AND o.memory_id NOT IN ${set})
    AND NOT EXISTS (SELECT 1 FROM entity_relations r WHERE r.account_id = ?1 AND r.namespace = ?2 AND r.user_id = ?3
      AND r.subject_id = c.id AND r.memory_id NOT IN ${set})
    AND NOT EXISTS (SELECT 1 FROM entity_relations r WHERE r.account_id = ?1 AND r.namespace = ?2 AND r.user_id = ?3
      AND r.object_id = c.id AND r.memory_id NOT IN ${set})${kept}`;
  return [
    `DELETE FROM entity_keys WHERE ${OWNER} AND entity_id IN (${orphans})`,
    `DELETE FROM entities WHERE ${OWNER} AND id IN (${orphans})`,
    `DELETE FROM entity_mentions WHERE ${OWNER} AND memory_id IN ${set}`,
    `DELETE FROM entity_relations WHERE ${OWNER} AND memory_id IN ${set}`,
  ];
}
/**
 * A replace keeps the rows of the entities the memories still name (?5, their ids): deleted and
 * inserted again, such an entity would lose the kind and the other names an import gave it (an
 * entity of a graph file whose only mentions are the memories being replaced, as when a split file
 * is imported again).
 */
const REPLACE_SQL = removalSql(ALL, " AND c.id NOT IN (SELECT value FROM json_each(?5))");
const PURGE_SQL = removalSql(GONE);

type Cell = string | number | null;

/** Rows of the four tables for a set of entities, relations and mentions, by entity id. */
interface EntityRows {
  entities: Cell[][];
  keys: Cell[][];
  mentions: Cell[][];
  relations: Cell[][];
}

const emptyRows = (): EntityRows => ({ entities: [], keys: [], mentions: [], relations: [] });

/** An entity already in a batch: its row (kind and cue updated in place), the cue behind that kind, its keys so far. */
interface Pending {
  row: Cell[];
  cue: number;
  keys: Set<string>;
}

/**
 * Adds `e` to the batch, or merges it into the same entity met earlier in it (an import or a backfill
 * names one person in many memories): every mention's names become keys, and the kind with the
 * strongest cue wins, as `keepStronger` decides inside one memory, so neither depends on which memory
 * came first; across batches UPSERT_ENTITIES applies the same rule to the stored cue.
 */
async function addEntity(rows: EntityRows, seen: Map<string, Pending>, e: EntityInput): Promise<string> {
  const id = await entityId(e.name);
  let pending = seen.get(id);
  if (!pending) {
    pending = { row: [id, e.name, e.kind, cueOf(e)], cue: cueOf(e), keys: new Set() };
    seen.set(id, pending);
    rows.entities.push(pending.row);
  } else if (cueOf(e) > pending.cue) {
    pending.cue = cueOf(e);
    pending.row[2] = e.kind;
    pending.row[3] = pending.cue;
  }
  for (const label of [e.name, ...e.aliases]) {
    const key = entityKey(label);
    if (key.length === 0 || pending.keys.has(key)) continue;
    pending.keys.add(key);
    rows.keys.push([key, id, label]);
  }
  return id;
}

async function sideId(side: string, byName: Map<string, string>): Promise<string | null> {
  if (side === USER) return USER;
  return byName.get(entityKey(side)) ?? null;
}

async function addRelations(
  rows: EntityRows,
  memoryId: string,
  relations: RelationInput[],
  byName: Map<string, string>,
) {
  for (const r of relations) {
    const [s, o] = [await sideId(r.subject, byName), await sideId(r.object, byName)];
    if (s && o && s !== o) rows.relations.push([memoryId, s, r.predicate, o]);
  }
}

/** The rows of what memories name: entity ids from their names, relations resolved to ids. */
export async function mentionRows(items: MemoryEntities[]): Promise<EntityRows> {
  const rows = emptyRows();
  const seen = new Map<string, Pending>();
  for (const item of items) {
    const byName = new Map<string, string>();
    for (const e of item.entities) {
      const id = await addEntity(rows, seen, e);
      byName.set(entityKey(e.name), id);
      rows.mentions.push([item.memoryId, id]);
    }
    for (const e of item.related ?? []) byName.set(entityKey(e.name), await addEntity(rows, seen, e));
    await addRelations(rows, item.memoryId, item.relations, byName);
  }
  return rows;
}

async function graphRows(graph: EntityGraph): Promise<EntityRows> {
  const rows = emptyRows();
  const seen = new Map<string, Pending>();
  const byName = new Map<string, string>();
  for (const e of graph.entities) byName.set(entityKey(e.name), await addEntity(rows, seen, e));
  await addRelations(rows, "", graph.relations, byName);
  for (const m of graph.mentions) {
    const id = byName.get(entityKey(m.entity));
    if (id) rows.mentions.push([m.memoryId, id]);
  }
  return rows;
}

function insertStatements(d1: D1Database, owner: Owner, rows: EntityRows, at: number): D1PreparedStatement[] {
  const o = [owner.accountId, owner.namespace, owner.userId];
  return [
    ...jsonChunks(rows.entities).map((j) => d1.prepare(UPSERT_ENTITIES).bind(...o, at, j)),
    ...jsonChunks(rows.keys).map((j) => d1.prepare(INSERT_KEYS).bind(...o, j)),
    ...jsonChunks(rows.mentions).map((j) => d1.prepare(INSERT_MENTIONS).bind(...o, j)),
    ...jsonChunks(rows.relations).map((j) => d1.prepare(INSERT_RELATIONS).bind(...o, j)),
  ];
}

function removals(d1: D1Database, owner: Owner, ids: string[], sql: string[], kept?: string): D1PreparedStatement[] {
  const o = [owner.accountId, owner.namespace, owner.userId];
  // Only the orphan statements read ?5; D1 refuses a binding a statement does not use.
  const extra = (s: string) => (kept !== undefined && s.includes("?5") ? [kept] : []);
  return jsonIdChunks(ids).flatMap((j) => sql.map((s) => d1.prepare(s).bind(...o, j, ...extra(s))));
}

/** Entities one replace step names at most, so their ids are one JSON parameter (about 76 bytes each). */
const KEPT_PER_STEP = 8000;

/** `items` in consecutive groups naming at most KEPT_PER_STEP entities each (a memory never split). */
function steps(items: MemoryEntities[]): MemoryEntities[][] {
  const out: MemoryEntities[][] = [];
  let part: MemoryEntities[] = [];
  let named = 0;
  for (const item of items) {
    const n = item.entities.length + (item.related?.length ?? 0);
    if (part.length > 0 && named + n > KEPT_PER_STEP) {
      out.push(part);
      part = [];
      named = 0;
    }
    part.push(item);
    named += n;
  }
  if (part.length > 0) out.push(part);
  return out;
}

/**
 * A purge's entity statements, for the purge's own batch (d1-memory-purge.ts): the mentions and
 * relations of those of `ids` whose memory row is gone, and the entities only they named.
 */
export function purgeStatements(d1: D1Database, owner: Owner, ids: string[]): D1PreparedStatement[] {
  return removals(d1, owner, ids, PURGE_SQL);
}

/**
 * What `items`' memories name now, in place of what they named (entities only they named and no
 * longer name go first, so an edit leaves no name behind that no memory holds; those they still name
 * keep their row, kind and other names), and each memory marked extracted at `at`.
 */
export async function replaceMentions(
  d1: D1Database,
  owner: Owner,
  items: MemoryEntities[],
  at: number,
): Promise<void> {
  if (items.length === 0) return;
  // One batch; a later step's removals see an earlier step's mentions, so they keep its entities too.
  const statements: D1PreparedStatement[] = [];
  for (const step of steps(items)) {
    const ids = step.map((i) => i.memoryId);
    const rows = await mentionRows(step);
    const kept = JSON.stringify(rows.entities.map((e) => e[0]));
    statements.push(
      ...removals(d1, owner, ids, REPLACE_SQL, kept),
      ...insertStatements(d1, owner, rows, at),
      ...jsonIdChunks(ids).map((j) => d1.prepare(MARK_EXTRACTED).bind(at, ...ownerIdsBinds(j, owner))),
    );
  }
  await d1.batch(statements);
}

export async function storeGraph(d1: D1Database, owner: Owner, graph: EntityGraph, at: number): Promise<void> {
  const statements = insertStatements(d1, owner, await graphRows(graph), at);
  if (statements.length > 0) await d1.batch(statements);
}

/** After a purge: the mentions and relations of those memories whose row is gone, and entities only they named. */
export async function forgetMemories(d1: D1Database, owner: Owner, memoryIds: string[]): Promise<void> {
  if (memoryIds.length === 0) return;
  await d1.batch(purgeStatements(d1, owner, memoryIds));
}
