/**
 * @module memory/import/import-graph
 * The entities and relations an import brings beside its memories (the MCP memory server's graph,
 * a Hippocampus export's entity and relation lines). Memories are named by their line's
 * external_id, since their ids exist only once they are stored; `graphFor` turns the request's
 * answer (external_id → id) into the EntityGraph the entity store takes. Pure.
 */
import type { EntityGraph, EntityInput, RelationInput } from "../entities/entity-types";
import { ENTITY_LIMITS, USER } from "../entities/entity-types";
import { redactText } from "../write/redact-secrets";
import type { LineError } from "./import-line";

export interface ImportGraph {
  entities: EntityInput[];
  relations: RelationInput[];
  /** Which imported memory (by its line's external_id) names which entity (by name). */
  mentions: { entity: string; externalId: string }[];
}

/** What an import stored of its graph (the import's answer, `entities`). */
export interface ImportedGraph {
  entities: number;
  relations: number;
  /** Links from a memory to an entity it names. */
  mentions: number;
}

export const emptyGraph = (): ImportGraph => ({ entities: [], relations: [], mentions: [] });

export const graphIsEmpty = (g: ImportGraph | undefined): boolean =>
  g === undefined || g.entities.length + g.relations.length + g.mentions.length === 0;

/**
 * The graph with an entity of kind `other` for every relation end it names but does not define: its
 * entity came in an earlier request of a split file, or the source never defined it.
 */
export function withRelationEnds(g: ImportGraph): ImportGraph {
  const entities = [...g.entities];
  const named = new Set(entities.map((e) => e.name));
  for (const r of g.relations)
    for (const end of [r.subject, r.object])
      if (end !== USER && !named.has(end)) {
        named.add(end);
        entities.push({ name: end, kind: "other", aliases: [] });
      }
  return { ...g, entities };
}

/** A request's graph within what one entity-store write takes; else one error for the body. */
export function graphBound(g: ImportGraph): LineError | null {
  const items = g.entities.length + g.relations.length;
  if (items <= ENTITY_LIMITS.graphItemsMax) return null;
  return {
    line: 0,
    field: null,
    message: `more than ${ENTITY_LIMITS.graphItemsMax} entities and relations in one request (${items}): split the file (npm run import does)`,
  };
}

/**
 * The graph with each mention's external_id replaced by the stored memory's id (imported now or
 * before: a skipped line maps to the memory it already is); mentions of lines that did not land go.
 */
export function graphFor(g: ImportGraph, idOf: Map<string, string>): EntityGraph {
  const mentions: EntityGraph["mentions"] = [];
  for (const m of g.mentions) {
    // Lines' external ids are stored screened (import-line.ts screenIds): look them up the same way.
    const memoryId = idOf.get(redactText(m.externalId));
    if (memoryId !== undefined) mentions.push({ entity: m.entity, memoryId });
  }
  return { entities: g.entities, relations: g.relations, mentions };
}

/** Characters a stored predicate keeps (entity-contracts.ts: letters, digits, spaces and _). */
const PREDICATE_CHAR = /^[\p{L}\p{N}_ ]$/u;
const PREDICATE_MAX = 64;

/**
 * Another system's relation type as a predicate the entity store takes: every other character (a
 * hyphen, a dot, an emoji) becomes "_", runs of them one, cut to 64. One pass over the characters.
 */
export function relationPredicate(text: string): string {
  let out = "";
  for (const ch of text.trim()) {
    const kept = PREDICATE_CHAR.test(ch) ? ch : "_";
    if (kept === "_" && out.endsWith("_")) continue;
    out += kept;
  }
  let start = 0;
  let end = out.length;
  while (start < end && (out[start] === "_" || out[start] === " ")) start++;
  while (end > start && (out[end - 1] === "_" || out[end - 1] === " ")) end--;
  const cut = out.slice(start, end).slice(0, PREDICATE_MAX).trim();
  return cut === "" ? "related_to" : cut;
}
