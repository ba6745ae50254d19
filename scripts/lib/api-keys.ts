/**
 * @module scripts/lib/api-keys
 * API key issuing for the operator scripts (keys.ts, dev.ts), against the `api_keys` table.
 * Keys, their hashes and ids are made by src/accounts/api-key-format.ts, the same code the Worker's
 * auth and the tests use.
 */
import { issueApiKey } from "../../src/accounts/api-key-format.ts";
import { query, ScriptError, safeKeyId, safeName, sqlValue, type Target } from "./wrangler-d1.ts";

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
  /** The shard its account's memories are on (docs/shards.md); null until the account first stores something. */
  shard?: string | null;
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

/** A new key for `owner` as `api_keys` SQL values (its hash, never the key), with its id and plaintext key. */
export async function newKeyRow(owner: KeyOwner, now: number): Promise<{ id: string; key: string; values: string }> {
  const name = safeName(owner.scope === "user" ? "user id" : "app name", owner.name);
  const account = safeName("account", owner.account);
  const { id, key, keyHash } = await issueApiKey();
  const values = [
    id,
    keyHash,
    account,
    owner.scope === "user" ? name : null,
    owner.scope === "app" ? name : null,
    owner.scope,
    checkLabel(owner.label ?? undefined),
    now,
  ]
    .map(sqlValue)
    .join(", ");
  return { id, key, values };
}

export const INSERT_KEYS =
  "INSERT INTO api_keys (id, key_hash, account_id, user_id, app_name, scope, label, created_at) VALUES";

/** Inserts a new key and returns its id and the plaintext key (the only time it exists). */
export async function createKey(owner: KeyOwner, target: Target): Promise<{ id: string; key: string }> {
  return (await createKeys([owner], target))[0];
}

/** Inserts several keys in one statement (one wrangler run); same order as `owners`. */
export async function createKeys(owners: KeyOwner[], target: Target): Promise<{ id: string; key: string }[]> {
  const now = Date.now();
  const rows = await Promise.all(owners.map((owner) => newKeyRow(owner, now)));
  query(`${INSERT_KEYS} ${rows.map((r) => `(${r.values})`).join(", ")}`, target);
  return rows.map(({ id, key }) => ({ id, key }));
}

const COLUMNS = "id, scope, account_id, user_id, app_name, label, created_at, last_used_at, revoked_at";

/** Every key, oldest first, with the shard its account is on (the directory is in the same database); never selects key_hash. */
export function listKeys(target: Target): KeyRecord[] {
  const columns = COLUMNS.split(", ")
    .map((c) => `k.${c}`)
    .join(", ");
  return query(
    `SELECT ${columns}, s.shard FROM api_keys k LEFT JOIN shard_accounts s ON s.account_id = k.account_id ORDER BY k.created_at, k.id`,
    target,
  ) as unknown as KeyRecord[];
}

export function hasUsableKey(target: Target): boolean {
  return query("SELECT id FROM api_keys WHERE revoked_at IS NULL LIMIT 1", target).length > 0;
}

/** Sets revoked_at; revoking twice keeps the first time. Throws when the id does not exist. */
export function revokeKey(id: string, target: Target): { record: KeyRecord; alreadyRevoked: boolean } {
  const safeId = safeKeyId(id);
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
