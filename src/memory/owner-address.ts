/**
 * @module memory/owner-address
 * The one home of how an owner is named (DESIGN §8). An owner is (account, namespace, user): a
 * person's own store lives in the account's `user` namespace; the end users of an app live in that
 * app's namespace (`app:<app name>`), so an app key can never reach a person's store or another
 * app's. Every place that names an owner — Durable Object name, FTS owner key, vector metadata,
 * idempotency keys, cursors, exports — derives it from `ownerAddress`, an injective encoding:
 * distinct owners always get distinct addresses, whatever characters their ids contain
 * (`acme` + `x:y` and `acme:x` + `y` no longer meet).
 *
 * The address is the JSON array `[account, namespace, user]`: JSON.stringify of strings is
 * injective and SQLite's `json_array(account_id, namespace, user_id)` yields the same text
 * (`OWNER_ADDRESS_SQL`), which is what lets a migration recompute it inside D1.
 */
import type { Owner } from "./types";

/** Namespace of the people of an account: a user key (or an OAuth grant made with one) acts here. */
export const PERSON_NAMESPACE = "user";

const APP_PREFIX = "app:";

/** Namespace of one app's end users. Two keys of the same app name share it (key rotation). */
export function appNamespace(appName: string): string {
  return `${APP_PREFIX}${appName}`;
}

/** True for namespaces that hold an app's end users (never a person's store). */
export function isAppNamespace(namespace: string): boolean {
  return namespace.startsWith(APP_PREFIX);
}

/** The injective address of an owner. */
export function ownerAddress(owner: Owner): string {
  return JSON.stringify([owner.accountId, owner.namespace, owner.userId]);
}

/** The same address computed by SQLite over a `memories` row (migrations use it). */
export const OWNER_ADDRESS_SQL = "json_array(account_id, namespace, user_id)";

/** Inverse of ownerAddress; null for anything that is not an address. */
export function parseOwnerAddress(address: string): Owner | null {
  let value: unknown;
  try {
    value = JSON.parse(address);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === "string")) return null;
  const [accountId, namespace, userId] = value as [string, string, string];
  return { accountId, namespace, userId };
}

/**
 * A key owned by one owner, e.g. an idempotency key with its agent: the address followed by the
 * parts, encoded as one JSON array so no choice of parts can imitate another owner's key.
 */
export function ownedKey(owner: Owner, ...parts: string[]): string {
  return JSON.stringify([owner.accountId, owner.namespace, owner.userId, ...parts]);
}

const encoder = new TextEncoder();

/**
 * The owner as one full-text token: lower-case hex of the address's UTF-8 bytes, exactly what
 * SQLite's `lower(hex(<address>))` gives. Hex keeps it one letters-and-digits token.
 */
export function ftsOwnerKey(owner: Owner): string {
  return toHex(encoder.encode(ownerAddress(owner)));
}

/**
 * A fixed-length digest of the address for stores that index only a prefix of a string: Vectorize
 * indexes the first 64 bytes of a metadata string, so two long addresses sharing 64 bytes would
 * share one filter value. base64url (no padding) of SHA-256: 43 ASCII characters.
 */
export async function ownerDigest(owner: Owner): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(ownerAddress(owner))));
  let binary = "";
  for (const b of digest) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "");
}

function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}
