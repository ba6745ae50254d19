/**
 * @module storage/memories/d1-import-links
 * The D1 side of imported links (memory/import/import-links.ts): rows still holding an unresolved
 * link, and link updates without events. Only imports of an export call these.
 */
import { and, eq, like, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { LinkRow } from "../../memory/ports";
import type { Owner } from "../../memory/types";
import { ownedBy } from "../d1-owner-scope";
import { prepared } from "../d1-prepared";
import { memories } from "../schema";

/** Unresolved links one import request settles at most; the next request settles the rest. */
const PENDING_MAX = 5000;

function parseIds(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export async function pendingLinks(db: DrizzleD1Database, owner: Owner, prefix: string): Promise<LinkRow[]> {
  // LIKE's own wildcards cannot occur in the prefix ("ext:"); the JSON form is `"ext:…"`.
  const rows = await db
    .select({ id: memories.id, supersededBy: memories.supersededBy, derivedFrom: memories.derivedFrom })
    .from(memories)
    .where(
      and(ownedBy(owner), or(like(memories.supersededBy, `${prefix}%`), like(memories.derivedFrom, `%"${prefix}%`))),
    )
    .limit(PENDING_MAX);
  return rows.map((r) => ({ id: r.id, supersededBy: r.supersededBy, derivedFrom: parseIds(r.derivedFrom) }));
}

export async function setLinks(d1: D1Database, db: DrizzleD1Database, owner: Owner, updates: LinkRow[]): Promise<void> {
  const statements = updates.map((u) =>
    prepared(
      d1,
      db
        .update(memories)
        .set({ supersededBy: u.supersededBy, derivedFrom: JSON.stringify(u.derivedFrom) })
        .where(and(ownedBy(owner), eq(memories.id, u.id))),
    ),
  );
  for (let i = 0; i < statements.length; i += 100) await d1.batch(statements.slice(i, i + 100));
}
