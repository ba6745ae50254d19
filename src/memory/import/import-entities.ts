/**
 * @module memory/import/import-entities
 * The entity graph an import carries, stored once its memories are: what each memory names and
 * states — its line mapped to the memory it landed as, or already was when skipped — in writes of
 * STATED_PER_WRITE memories, then the entities (kinds, other names) and the relations given on
 * their own in one entity-store write, so an entity with thousands of observations is a few D1
 * batches, never one unbounded statement. Those memories count as extracted (their entities come
 * from the source), so the extraction job leaves them as imported. As on every write path, the
 * memories never fail for their entities: a write that does not fit in the invocation or fails is
 * counted in `pending` (the memories keep what extraction found) and re-running the import stores
 * it, since a skipped line maps to the memory it already is. Runs on the service's write queue,
 * inside the import's call. The graph is screened first (screen-graph.ts): names redacted, and an
 * entity, alias or relation that reads as an instruction left out and counted in `dropped`.
 */

import type { MemoryEntities } from "../entities/entity-types";
import { ENTITY_SYNC_CALLS } from "../entities/sync-entities";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import { type ImportedGraph, type ImportGraph, statedFor } from "./import-graph";
import type { ImportedItem } from "./import-memories";
import { screenGraph } from "./screen-graph";

/** Memories per replaceMentions write: each a few rows of one JSON parameter. */
export const STATED_PER_WRITE = 500;

export async function importEntities(
  deps: MemoryDeps,
  owner: Owner,
  imported: ImportGraph,
  items: ImportedItem[],
): Promise<ImportedGraph> {
  const at = deps.clock.now();
  const idOf = new Map<string, string>();
  for (const it of items) if (it.external_id !== null) idOf.set(it.external_id, it.id);
  // Screened like a save: redacted, and what reads as an instruction left out (screen-graph.ts).
  const { graph, dropped } = screenGraph(imported);
  const stated = statedFor(graph, idOf);
  const stored: MemoryEntities[] = [];
  for (let i = 0; i < stated.length; i += STATED_PER_WRITE) {
    const slice = stated.slice(i, i + STATED_PER_WRITE);
    if (await attempt(deps, () => deps.entities.replaceMentions(owner, slice, at))) stored.push(...slice);
  }
  // After the mentions: replacing them drops entities only those memories named, and with them a
  // kind or other names given here; stored last, they stay.
  const given = graph.entities.length + graph.relations.length > 0;
  const storedGiven =
    !given ||
    (await attempt(deps, () =>
      deps.entities.storeGraph(owner, { entities: graph.entities, relations: graph.relations, mentions: [] }, at),
    ));
  return {
    entities: storedGiven ? graph.entities.length : 0,
    relations: (storedGiven ? graph.relations.length : 0) + stored.reduce((n, s) => n + s.relations.length, 0),
    mentions: stored.reduce((n, s) => n + s.entities.length, 0),
    pending: (storedGiven ? 0 : graph.entities.length + graph.relations.length) + stated.length - stored.length,
    dropped,
  };
}

/** One entity write if the invocation has room for it; false when it had none or the write failed. */
async function attempt(deps: MemoryDeps, write: () => Promise<void>): Promise<boolean> {
  if ((deps.invocation?.callsLeft() ?? Number.POSITIVE_INFINITY) < ENTITY_SYNC_CALLS) return false;
  try {
    await write();
    return true;
  } catch (err) {
    // The error's kind only: nothing of the memories' text or the entities' names.
    deps.log.warn("imported entities not stored; re-running the import stores them", {
      error: err instanceof Error ? err.name : "unknown",
    });
    return false;
  }
}
