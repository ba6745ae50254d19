/**
 * @module storage/memories/d1-memory-purge
 * MemoryRepo.purge on D1: rows removed for good, each with its FTS row, its events emptied of
 * content and one content-free purge event. Every statement after a row's DELETE runs only if the
 * row is gone, so a DELETE whose own predicate did not hold (a row restored or edited since it was
 * selected) leaves the row's FTS row and events untouched. The same batch removes what the purged
 * rows named (storage/d1-entity-writes.ts): their mentions and relations, and entities no other
 * memory names.
 */
import { and, eq, sql } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { ownerAddress } from "../../memory/owner-address";
import type { Owner } from "../../memory/types";
import { chunk } from "../d1-bulk-rows";
import { ownedBy } from "../d1-owner-scope";
import { prepared } from "../d1-prepared";
import { purgeStatements as entityPurge } from "../entities/d1-entity-writes";
import { ftsPurge } from "../lexical/fts-row-statements";
import { memories, memoryEvents } from "../schema";
import { eventsOf, purgeEventInsert } from "./d1-memory-events";
import { tombstonedBy } from "./d1-tombstones";

/** Rows one D1 batch purges (four statements each). */
const PURGE_CHUNK = 25;

export async function purgeMemories(
  d1: D1Database,
  db: DrizzleD1Database,
  owner: Owner,
  purge: { ids: string[]; actor: string; at: number; tombstonedBefore?: number },
): Promise<void> {
  const { actor, at, tombstonedBefore } = purge;
  const address = ownerAddress(owner);
  const still = tombstonedBefore === undefined ? undefined : tombstonedBy(tombstonedBefore);
  for (const part of chunk(purge.ids, PURGE_CHUNK)) {
    const statements = part.flatMap((id) => {
      // Everything after the DELETE runs only if the row is gone, i.e. the predicate held.
      const gone = sql`NOT EXISTS (SELECT 1 FROM memories WHERE id = ${id})`;
      return [
        prepared(d1, db.delete(memories).where(and(ownedBy(owner), eq(memories.id, id), still))),
        ftsPurge(d1, id, address),
        prepared(
          d1,
          db
            .update(memoryEvents)
            .set({ before: null, after: null })
            .where(and(eventsOf(owner, id), gone)),
        ),
        purgeEventInsert(d1, owner, id, actor, at),
      ];
    });
    // The entities they named go in the same batch, after the rows (only for rows now gone).
    await d1.batch([...statements, ...entityPurge(d1, owner, part)]);
  }
}
