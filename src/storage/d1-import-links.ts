/**
 * @module storage/d1-import-links
 * The D1 side of imported links (memory/import/import-links.ts): rows still holding an unresolved
 * link, and link updates without events. Only imports of an export call these.
 */
import { and, eq, like, or } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { LinkRow } from "../memory/ports";
import type { Owner } from "../memory/types";
import { memories } from "./schema";

/** Unresolved links one import request settles at most; the next request settles the rest. */
const PENDING_MAX = 5000;

function owned(owner: Owner) {
  return and(
    eq(memories.accountId, owner.accountId),
    eq(memories.namespace, owner.namespace),
    eq(memories.userId, owner.userId),
  );
}

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
    .where(and(owned(owner), or(like(memories.supersededBy, `${prefix}%`), like(memories.derivedFrom, `%"${prefix}%`))))
    .limit(PENDING_MAX);
  return rows.map((r) => ({ id: r.id, supersededBy: r.supersededBy, derivedFrom: parseIds(r.derivedFrom) }));
}

export async function setLinks(d1: D1Database, db: DrizzleD1Database, owner: Owner, updates: LinkRow[]): Promise<void> {
  const statements = updates.map((u) => {
    const q = db
      .update(memories)
      .set({ supersededBy: u.supersededBy, derivedFrom: JSON.stringify(u.derivedFrom) })
      .where(and(owned(owner), eq(memories.id, u.id)))
      .toSQL();
    return d1.prepare(q.sql).bind(...q.params);
  });
  for (let i = 0; i < statements.length; i += 100) await d1.batch(statements.slice(i, i + 100));
}
