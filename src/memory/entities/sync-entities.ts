/**
 * @module memory/entities/sync-entities
 * Keeps what memories name in step with them on every write path: after a save, a merge, an edit,
 * a release or an import, the written memories' entities are extracted (extract-entities.ts) and
 * stored in one batch, replacing what they named before. A memory whose entities could not be
 * stored keeps entities_at null (an edit sets it null first), and the Cron job (entity-backfill-job.ts)
 * extracts it later: a write never fails for its entities.
 */
import type { MemoryDeps } from "../service-deps";
import type { Memory, Owner } from "../types";
import { extractEntities } from "./extract-entities";

/** D1 statements one sync may need (removals, inserts, the extracted mark), kept free before it starts. */
export const ENTITY_SYNC_CALLS = 12;

export async function syncEntities(deps: MemoryDeps, owner: Owner, written: Memory[]): Promise<void> {
  const active = written.filter((m) => m.status === "active");
  if (active.length === 0) return;
  if ((deps.invocation?.callsLeft() ?? Number.POSITIVE_INFINITY) < ENTITY_SYNC_CALLS) return;
  try {
    await deps.entities.replaceMentions(
      owner,
      active.map((m) => extractEntities(m.id, m.content)),
      deps.clock.now(),
    );
  } catch (err) {
    // The error's kind only: nothing of the memories' text.
    deps.log.warn("entities not stored; the Cron job extracts them later", {
      error: err instanceof Error ? err.name : "unknown",
      memories: active.length,
    });
  }
}

/** Memories one sync of a bulk write stores the entities of: one batch of a few statements. */
export const ENTITY_SYNC_SLICE = 500;

/** A bulk write's memories (an import) in slices, as long as the invocation has calls left; the Cron job does the rest. */
export async function syncEntitiesInSlices(deps: MemoryDeps, owner: Owner, written: Memory[]): Promise<void> {
  for (let i = 0; i < written.length; i += ENTITY_SYNC_SLICE)
    await syncEntities(deps, owner, written.slice(i, i + ENTITY_SYNC_SLICE));
}
