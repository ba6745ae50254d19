/**
 * @module storage/memories/d1-memory-writes
 * MemoryRepo.write on D1: new rows and patches, each with its FTS row and its event, as ONE D1 batch,
 * so a row, its FTS entry and its event land together or not at all. New rows go as multi-row
 * inserts (d1-bulk-rows.ts). A guarded patch (`when`, lifecycle jobs) carries its own predicate:
 * it changes its row only if the row's status and updated_at are still those it was computed from.
 */
import { and, eq } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import { ownerAddress } from "../../memory/owner-address";
import type { MemoryPatch, MemoryWrite } from "../../memory/ports";
import type { Owner } from "../../memory/types";
import { bulkInserts } from "../d1-bulk-rows";
import { ownedBy } from "../d1-owner-scope";
import { prepared } from "../d1-prepared";
import { ftsDelete, ftsReplace } from "../lexical/fts-row-statements";
import { memories } from "../schema";
import { eventInsert, eventInsertIfChanged } from "./d1-memory-events";
import { patchToRow } from "./memory-mapper";

export async function writeMemories(
  d1: D1Database,
  db: DrizzleD1Database,
  owner: Owner,
  inserts: MemoryWrite[],
  patches: MemoryPatch[],
): Promise<void> {
  const address = ownerAddress(owner);
  const statements = bulkInserts(d1, owner, address, {
    memories: inserts.map((w) => w.memory),
    fts: inserts
      .filter((w) => w.ftsTokens)
      .map((w) => ({ memoryId: w.memory.id, tokens: w.ftsTokens, context: w.contextTokens ?? "" })),
    events: inserts.flatMap((w) => w.history ?? [w.event]),
  });
  for (const p of patches) statements.push(...patchStatements(d1, db, owner, address, p));
  if (statements.length > 0) await d1.batch(statements);
}

/** One patch: its UPDATE, then its FTS row's change (if any), then its event. */
function patchStatements(
  d1: D1Database,
  db: DrizzleD1Database,
  owner: Owner,
  address: string,
  p: MemoryPatch,
): D1PreparedStatement[] {
  const unchanged = p.when
    ? and(eq(memories.status, p.when.status), eq(memories.updatedAt, p.when.updatedAt))
    : undefined;
  const update = prepared(
    d1,
    db
      .update(memories)
      .set(patchToRow(p.changes))
      .where(and(ownedBy(owner), eq(memories.id, p.id), unchanged)),
  );
  const event = { memoryId: p.id, ...p.event };
  if (p.when) {
    if (p.ftsTokens !== undefined) throw new Error("a guarded patch cannot change FTS tokens");
    // A guarded patch records its event only if its UPDATE changed the row (changes() of the statement before).
    return [update, eventInsertIfChanged(d1, owner, event)];
  }
  return [update, ...ftsPatch(d1, p.id, address, p.ftsTokens), eventInsert(d1, db, owner, event)];
}

/** New tokens replace the row's own; empty tokens remove the row (the text is no longer searchable). */
function ftsPatch(d1: D1Database, id: string, address: string, tokens: string | undefined): D1PreparedStatement[] {
  if (tokens === undefined) return [];
  return tokens ? ftsReplace(d1, id, address, tokens) : [ftsDelete(d1, id, address)];
}
