/**
 * @module memory/import/import-entities
 * The entity graph an import carries, stored once its memories are: each mention's line becomes the
 * memory it landed as (or already was, when skipped), then the graph goes to the entity store in
 * bounded writes of at most ENTITY_LIMITS.graphItemsMax mentions each, so an entity with thousands
 * of observations is a few D1 batches, never one unbounded statement. Runs on the service's write
 * queue, inside the import's call.
 */
import type { EntityGraph } from "../entities/entity-types";
import { ENTITY_LIMITS } from "../entities/entity-types";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import { graphFor, type ImportedGraph, type ImportGraph } from "./import-graph";
import type { ImportedItem } from "./import-memories";

/** The graph in parts: entities and relations with the first mentions, then the rest of the mentions. */
export function graphParts(graph: EntityGraph): EntityGraph[] {
  const step = ENTITY_LIMITS.graphItemsMax;
  const parts: EntityGraph[] = [{ ...graph, mentions: graph.mentions.slice(0, step) }];
  const byName = new Map(graph.entities.map((e) => [e.name, e]));
  for (let at = step; at < graph.mentions.length; at += step) {
    const mentions = graph.mentions.slice(at, at + step);
    const entities = [...new Set(mentions.map((m) => m.entity))].map((n) => byName.get(n)!).filter(Boolean);
    parts.push({ entities, relations: [], mentions });
  }
  return parts;
}

export async function importEntities(
  deps: MemoryDeps,
  owner: Owner,
  given: ImportGraph,
  items: ImportedItem[],
): Promise<ImportedGraph> {
  const idOf = new Map<string, string>();
  for (const it of items) if (it.external_id !== null) idOf.set(it.external_id, it.id);
  const graph = graphFor(given, idOf);
  const at = deps.clock.now();
  for (const part of graphParts(graph)) await deps.entities.storeGraph(owner, part, at);
  return { entities: graph.entities.length, relations: graph.relations.length, mentions: graph.mentions.length };
}
