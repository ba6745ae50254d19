/**
 * @module memory/import/import-entities
 * The entity graph an import carries, stored once its memories are: the entities (kinds, other
 * names) and the relations given on their own in one entity-store write, then what each memory
 * names and states — its line mapped to the memory it landed as, or already was when skipped — in
 * writes of STATED_PER_WRITE memories, so an entity with thousands of observations is a few D1
 * batches, never one unbounded statement. Those memories count as extracted (their entities come
 * from the source), so the extraction job leaves them as imported. Runs on the service's write
 * queue, inside the import's call.
 */
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import { type ImportedGraph, type ImportGraph, statedFor } from "./import-graph";
import type { ImportedItem } from "./import-memories";

/** Memories per replaceMentions write: each a few rows of one JSON parameter. */
export const STATED_PER_WRITE = 500;

export async function importEntities(
  deps: MemoryDeps,
  owner: Owner,
  graph: ImportGraph,
  items: ImportedItem[],
): Promise<ImportedGraph> {
  const at = deps.clock.now();
  if (graph.entities.length + graph.relations.length > 0)
    await deps.entities.storeGraph(owner, { entities: graph.entities, relations: graph.relations, mentions: [] }, at);
  const idOf = new Map<string, string>();
  for (const it of items) if (it.external_id !== null) idOf.set(it.external_id, it.id);
  const stated = statedFor(graph, idOf);
  for (let i = 0; i < stated.length; i += STATED_PER_WRITE)
    await deps.entities.replaceMentions(owner, stated.slice(i, i + STATED_PER_WRITE), at);
  return {
    entities: graph.entities.length,
    relations: graph.relations.length + stated.reduce((n, s) => n + s.relations.length, 0),
    mentions: stated.reduce((n, s) => n + s.entities.length, 0),
  };
}
