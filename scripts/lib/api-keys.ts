/**
 * @module scripts/lib/api-keys
 * API key issuing for the operator scripts (keys.ts, dev.ts), against the `api_keys` table.
 * The format is shared with the Worker's auth middleware and must not drift:
 *   key      = "hc_" + 40 lowercase hex chars (20 random bytes)
 *   key_hash = lowercase hex SHA-256 of the full key string (UTF-8) — the key itself is never stored
 *   id       = "key_" + 16 lowercase hex chars
 */
import { createHash } from "node:crypto";
import { query, ScriptError, safeName, sqlValue, type Target } from "./wrangler-d1.ts";

export type Scope = "user" | "app";

export interface KeyOwner {
  scope: Scope;
  /** user id for scope "user", app name for scope "app" */
  name: string;
  account: string;
  label: string | null;
}

export interface KeyRecord {
  id: string;
  scope: Scope;
  account_id: string;
  user_id: string | null;
  app_name: string | null;
  label: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buf, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function generateKey(): string {
  return `hc_${randomHex(20)}`;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** Labels are free text for humans; refuse control characters so `list` stays one row per key. */
export function checkLabel(label: string | undefined): string | null {
  if (label === undefined || label === "") return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this strips
  if (label.length > 200 || /[\u0000-\u001f\u007f]/.test(label)) {
    throw new ScriptError("invalid --label: at most 200 characters, no control characters");
  }
  return label;
}

/** One api_keys row as SQL values, with its id and plaintext key. */
function keyRow(owner: KeyOwner): { id: string; key: string; values: string } {
  const name = safeName(owner.scope === "user" ? "user id" : "app name", owner.name);
  const account = safeName("account", owner.account);
  const id = `key_${randomHex(8)}`;
  const key = generateKey();
  const values = [
    id,
    hashKey(key),
    account,
    owner.scope === "user" ? name : null,
    owner.scope === "app" ? name : null,
    owner.scope,
    checkLabel(owner.label ?? undefined),
    Date.now(),
  ]
    .map(sqlValue)
    .join(", ");
  return { id, key, values };
}

const INSERT_KEYS =
  "INSERT INTO api_keys (id, key_hash, account_id, user_id, app_name, scope, label, created_at) VALUES";

/** Inserts a new key and returns its id and the plaintext key (the only time it exists). */
export function createKey(owner: KeyOwner, target: Target): { id: string; key: string } {
  return createKeys([owner], target)[0];
}

/** Inserts several keys in one statement (one wrangler run); same order as `owners`. */
export function createKeys(owners: KeyOwner[], target: Target): { id: string; key: string }[] {
  const rows = owners.map(keyRow);
  query(`${INSERT_KEYS} ${rows.map((r) => `(${r.values})`).join(", ")}`, target);
  return rows.map(({ id, key }) => ({ id, key }));
}

const COLUMNS = "id, scope, account_id, user_id, app_name, label, created_at, last_used_at, revoked_at";

/** Every key, oldest first; never selects key_hash. */
export function listKeys(target: Target): KeyRecord[] {
  return query(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`, target) as unknown as KeyRecord[];
}

export function hasUsableKey(target: Target): boolean {
  return query("SELECT id FROM api_keys WHERE revoked_at IS NULL LIMIT 1", target).length > 0;
}

/** Sets revoked_at; revoking twice keeps the first time. Throws when the id does not exist. */
export function revokeKey(id: string, target: Target): { record: KeyRecord; alreadyRevoked: boolean } {
  const safeId = safeName("key id", id);
  const before = query(`SELECT ${COLUMNS} FROM api_keys WHERE id = ${sqlValue(safeId)}`, target)[0] as unknown as
    | KeyRecord
    | undefined;
  if (!before) throw new ScriptError(`no API key with id ${safeId} (${target} database)`);
  if (before.revoked_at !== null) return { record: before, alreadyRevoked: true };
  // `revoked_at IS NULL` keeps the first revocation time if another revoke raced this one.
  const after = query(
    `UPDATE api_keys SET revoked_at = ${sqlValue(Date.now())} WHERE id = ${sqlValue(safeId)} AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    target,
  )[0] as unknown as KeyRecord | undefined;
  return after ? { record: after, alreadyRevoked: false } : { record: before, alreadyRevoked: true };
}
