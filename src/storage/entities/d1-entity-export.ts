/**
 * @module storage/entities/d1-entity-export
 * The entity rows of an export (docs/export-format.md, version 2): what a page of memories names
 * and the relations each states (one statement each for the page, its ids as one JSON parameter),
 * then every entity of the owner in id order with its other names, then the relations imported as
 * given (no memory states them) in row order. Each call reads one bounded page; every statement
 * names the owner on each table it reads.
 */

import { USER } from "../../memory/entities/entity-types";
import type { ExportedEntity, ExportedRelation, StatedEntities } from "../../memory/export/export-format";
import type { Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownerOf } from "./d1-entity-owner";

const nameOf = (alias: string, column: string) =>
  `coalesce((SELECT e.name FROM entities e WHERE ${ownerOf("e")} AND e.id = ${alias}.${column}), ${alias}.${column})`;

const MENTIONS = `SELECT mn.memory_id, e.name FROM entity_mentions mn
  JOIN entities e ON ${ownerOf("e")} AND e.id = mn.entity_id
  WHERE ${ownerOf("mn")} AND mn.memory_id IN (SELECT value FROM json_each(?4)) ORDER BY mn.memory_id, mn.id`;

const STATED = `SELECT r.memory_id, r.subject_id, r.object_id, r.predicate,
    ${nameOf("r", "subject_id")} AS subject_name, ${nameOf("r", "object_id")} AS object_name
  FROM entity_relations r WHERE ${ownerOf("r")} AND r.memory_id IN (SELECT value FROM json_each(?4)) ORDER BY r.id`;

const ENTITIES = `SELECT e.id, e.name, e.kind,
    (SELECT group_concat(k.label, char(31)) FROM entity_keys k WHERE ${ownerOf("k")} AND k.entity_id = e.id) AS labels
  FROM entities e WHERE ${ownerOf("e")} AND e.id > ?4 ORDER BY e.id LIMIT ?5`;

const GIVEN = `SELECT r.id, r.subject_id, r.object_id, r.predicate,
    ${nameOf("r", "subject_id")} AS subject_name, ${nameOf("r", "object_id")} AS object_name
  FROM entity_relations r WHERE ${ownerOf("r")} AND r.memory_id = '' AND r.id > ?4 ORDER BY r.id LIMIT ?5`;

/** Statements `statedEntities` runs for a page of `pageSize` memories (ids travel as one JSON parameter). */
export const STATED_QUERIES = 2;

interface RelationRow {
  subject_id: string;
  object_id: string;
  predicate: string;
  subject_name: string;
  object_name: string;
}

const side = (id: string, name: string) => (id === USER ? USER : name);
const relationOf = (r: RelationRow) => ({
  subject: side(r.subject_id, r.subject_name),
  predicate: r.predicate,
  object: side(r.object_id, r.object_name),
});

/** What each of these memories names and states; a memory naming nothing has no entry. */
export async function statedEntities(
  d1: D1Database,
  owner: Owner,
  ids: string[],
): Promise<Map<string, StatedEntities>> {
  const out = new Map<string, StatedEntities>();
  if (ids.length === 0) return out;
  const o = [owner.accountId, owner.namespace, owner.userId];
  const entry = (id: string) => {
    let e = out.get(id);
    if (!e) out.set(id, (e = { entities: [], relations: [] }));
    return e;
  };
  for (const json of jsonIdChunks(ids)) {
    const [mentions, stated] = await d1.batch([
      d1.prepare(MENTIONS).bind(...o, json),
      d1.prepare(STATED).bind(...o, json),
    ]);
    for (const r of mentions.results as { memory_id: string; name: string }[]) entry(r.memory_id).entities.push(r.name);
    for (const r of stated.results as (RelationRow & { memory_id: string })[])
      entry(r.memory_id).relations.push(relationOf(r));
  }
  return out;
}

export async function entityPage(
  d1: D1Database,
  owner: Owner,
  after: string,
  limit: number,
): Promise<ExportedEntity[]> {
  const { results } = await d1
    .prepare(ENTITIES)
    .bind(owner.accountId, owner.namespace, owner.userId, after, limit)
    .all<{ id: string; name: string; kind: string; labels: string | null }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    aliases: [...new Set((r.labels ?? "").split("\u001f").filter((l) => l.length > 0 && l !== r.name))],
  }));
}

export async function givenRelationPage(
  d1: D1Database,
  owner: Owner,
  after: number,
  limit: number,
): Promise<{ position: number; relation: ExportedRelation }[]> {
  const { results } = await d1
    .prepare(GIVEN)
    .bind(owner.accountId, owner.namespace, owner.userId, after, limit)
    .all<RelationRow & { id: number }>();
  return results.map((r) => ({ position: Number(r.id), relation: relationOf(r) }));
}
