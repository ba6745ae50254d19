/**
 * @module memory/import/import-links
 * Supersede and derived_from links of an imported Hippocampus export. A link names another memory
 * by its id in the exported store, which on import became that memory's external_id. A link whose
 * target is in the same request or was imported before is resolved at once; one whose target comes
 * in a later request (npm run import splits big files) is stored as `ext:<external id>` — never a
 * real id, since ids are ULIDs — and resolved when its target arrives. Pure except the repo calls.
 */
import type { ImportLinkRows, MemoryReads } from "../ports";
import type { Owner } from "../types";

export const PENDING_PREFIX = "ext:";

export type Resolve = (ref: string) => string;

/** Resolves refs through `known` (external id → new id), else marks them pending. */
export function linkResolver(known: Map<string, string>): Resolve {
  return (ref) => known.get(ref) ?? `${PENDING_PREFIX}${ref}`;
}

const pendingRef = (value: string) => (value.startsWith(PENDING_PREFIX) ? value.slice(PENDING_PREFIX.length) : null);

/** Fills in pending links of this owner whose targets have arrived; links are not events, so no history is added. */
export async function resolvePendingLinks(
  repo: ImportLinkRows & Pick<MemoryReads, "findByExternalIds">,
  owner: Owner,
): Promise<number> {
  const pending = await repo.pendingLinks(owner, PENDING_PREFIX);
  if (pending.length === 0) return 0;
  const refs = new Set<string>();
  for (const p of pending) {
    const s = p.supersededBy === null ? null : pendingRef(p.supersededBy);
    if (s) refs.add(s);
    for (const d of p.derivedFrom) {
      const r = pendingRef(d);
      if (r) refs.add(r);
    }
  }
  const found = await repo.findByExternalIds(owner, [...refs]);
  const known = new Map(found.map((m) => [m.externalId!, m.id]));
  const swap = (v: string) => known.get(pendingRef(v) ?? "") ?? v;
  const updates = pending
    .map((p) => ({
      id: p.id,
      supersededBy: p.supersededBy === null ? null : swap(p.supersededBy),
      derivedFrom: p.derivedFrom.map(swap),
      changed: false,
      before: p,
    }))
    .map((u) => ({
      ...u,
      changed: u.supersededBy !== u.before.supersededBy || u.derivedFrom.some((d, i) => d !== u.before.derivedFrom[i]),
    }))
    .filter((u) => u.changed);
  if (updates.length > 0)
    await repo.setLinks(
      owner,
      updates.map(({ id, supersededBy, derivedFrom }) => ({ id, supersededBy, derivedFrom })),
    );
  return updates.length;
}
