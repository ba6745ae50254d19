/**
 * @module memory/import/import-graph
 * The entities and relations an import brings beside its memories (the MCP memory server's graph,
 * a Hippocampus export's entity and relation lines): entities with their kinds and other names,
 * relations given on their own, and what each imported memory names and states. Memories are named
 * by their line's external_id, since their ids exist only once they are stored; `statedFor` turns
 * the request's answer (external_id → id) into what the entity store takes. Pure.
 */
import type { EntityInput, MemoryEntities, RelationInput } from "../entities/entity-types";
import { ENTITY_LIMITS, USER } from "../entities/entity-types";
import { redactText } from "../write/redact-secrets";
import type { LineError } from "./import-line";

/** What one imported memory names (entities by name) and states (relations between them or the user). */
export interface StatedByLine {
  externalId: string;
  entities: string[];
  relations: RelationInput[];
}

export interface ImportGraph {
  /** Entities with their kind and other names (an entity only a memory names is kind `other`). */
  entities: EntityInput[];
  /** Relations no memory states, stored as given. */
  relations: RelationInput[];
  stated: StatedByLine[];
}

/** What an import stored of its graph (the import's answer, `entities`). */
export interface ImportedGraph {
  entities: number;
  relations: number;
  /** Links from a memory to an entity it names. */
  mentions: number;
  /** Entities, relations and memories whose part of the graph was not stored (re-run the import). */
  pending: number;
  /**
   * Entities, aliases and relations (given or stated) left out because they read as instructions,
   * or named an entity that did (import/screen-graph.ts).
   */
  dropped: number;
}

export const emptyGraph = (): ImportGraph => ({ entities: [], relations: [], stated: [] });

export const graphIsEmpty = (g: ImportGraph | undefined): boolean =>
  g === undefined || g.entities.length + g.relations.length + g.stated.length === 0;

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
 * The graph with an entity of kind `other` for every relation end it names but does not define: its
 * entity came in an earlier request of a split file, or the source never defined it. The store never
 * lowers a known kind to `other`, so this only names it.
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

/**
 * Each landed line's memory with the entities it names (kinds from the graph, else `other`) and the
 * relations it states, whose ends it names too; lines that did not land are left out.
 */
export function statedFor(g: ImportGraph, idOf: Map<string, string>): MemoryEntities[] {
  const byName = new Map(g.entities.map((e) => [e.name, e]));
  const out: MemoryEntities[] = [];
  for (const s of g.stated) {
    // Lines' external ids are stored screened (import-line.ts screenIds): look them up the same way.
    const memoryId = idOf.get(redactText(s.externalId));
    if (memoryId === undefined) continue;
    const names = new Set(s.entities);
    for (const r of s.relations) for (const end of [r.subject, r.object]) if (end !== USER) names.add(end);
    const entities = [...names].map((name) => ({ name, kind: byName.get(name)?.kind ?? "other", aliases: [] }));
    out.push({ memoryId, entities, relations: s.relations });
  }
  return out;
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
