/**
 * @module storage/memories/d1-tombstones
 * What the purge job may remove, in one place for its selection and its delete's own predicate:
 * deleted, expired and superseded memories whose tombstone time (deleted_at, else updated_at) is
 * at or before the cutoff, and quarantined memories that were deleted by then (a deleted quarantined
 * memory keeps its quarantine so no tool restores it; one still under review is never purged).
 */
import { and, eq, inArray, isNotNull, lte, or, type SQL, sql } from "drizzle-orm";
import { memories } from "../schema";

export const TOMBSTONE_STATUSES = ["deleted", "expired", "superseded"] as const;

export function tombstonedBy(cutoff: number): SQL {
  return or(
    and(
      inArray(memories.status, [...TOMBSTONE_STATUSES]),
      sql`coalesce(${memories.deletedAt}, ${memories.updatedAt}) <= ${cutoff}`,
    ),
    and(eq(memories.status, "quarantined"), isNotNull(memories.deletedAt), lte(memories.deletedAt, cutoff)),
  )!;
}
