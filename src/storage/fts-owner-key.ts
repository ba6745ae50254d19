/**
 * @module storage/fts-owner-key
 * FTS5 scoping by owner. The owner token (`ftsOwnerKey`, memory/owner-address.ts: hex of the
 * owner's injective address, what SQLite's lower(hex(<address>)) gives) is ANDed with a search's
 * words, so FTS5 only ever scores this owner's rows.
 */
import { ftsOwnerKey } from "../memory/owner-address";
import type { Owner } from "../memory/types";

/** FTS5 query: this owner's rows whose own tokens (and context, when asked) match `terms`. */
export function ownerScopedMatch(owner: Owner, terms: string, columns: "tokens" | "tokens context"): string {
  return `{owner_key} : "${ftsOwnerKey(owner)}" AND {${columns}} : (${terms})`;
}
