/**
 * @module storage/fts-owner-key
 * The owner as one full-text token: lower-case hex of the UTF-8 bytes of "account:user", exactly
 * what SQLite's lower(hex(owner)) gives (migrations/0004 and every FTS insert compute it in SQL).
 * Searches AND it with their words, so FTS5 only ever scores this user's rows; hex keeps it one
 * letters-and-digits token and case-exact ("Alice" and "alice" differ).
 */
import type { Owner } from "../memory/types";
import { ownerKey } from "./memory-mapper";

const encoder = new TextEncoder();

export function ftsOwnerKey(owner: Owner): string {
  return Array.from(encoder.encode(ownerKey(owner)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** FTS5 query: this owner's rows whose own tokens (and context, when asked) match `terms`. */
export function ownerScopedMatch(owner: Owner, terms: string, columns: "tokens" | "tokens context"): string {
  return `{owner_key} : "${ftsOwnerKey(owner)}" AND {${columns}} : (${terms})`;
}
