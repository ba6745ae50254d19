/**
 * @module scripts/lib/oauth-grants
 * OAuth grants for the operator scripts: list them and revoke them, straight in OAUTH_KV.
 * Works offline like the rest of the keys CLI and needs no admin endpoint on the Worker. It relies
 * on the KV layout @cloudflare/workers-oauth-provider documents (storage-schema.md):
 *   grant:{subject}:{grantId}          JSON grant: id, clientId, userId, scope, metadata, createdAt, expiresAt
 *   token:{subject}:{grantId}:{hash}   its access tokens
 * Revoking deletes the tokens, then the grant, in the library's own order (revokeGrant). The
 * grant's metadata is Hippocampus's (src/http/oauth/grant-props.ts): keyId, accountId, userId,
 * access, clientName. Token values and props are never read: they are hashed or encrypted anyway.
 */

import { ScriptError, type Target } from "./wrangler-d1.ts";
import { deleteKvKeys, getKvValues, listKvKeys } from "./wrangler-kv.ts";

const GRANT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface GrantRecord {
  id: string;
  subject: string;
  clientId: string;
  scope: string[];
  createdAt: number;
  expiresAt: number | null;
  keyId: string | null;
  accountId: string | null;
  userId: string | null;
  clientName: string | null;
}

export interface GrantFilter {
  account?: string;
  user?: string;
  keyId?: string;
}

/** `grant:{subject}:{grantId}`: grant ids never contain ":", so the last one separates them. */
function splitGrantKey(name: string): { subject: string; grantId: string } | null {
  const rest = name.slice("grant:".length);
  const at = rest.lastIndexOf(":");
  return at > 0 ? { subject: rest.slice(0, at), grantId: rest.slice(at + 1) } : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function toRecord(key: string, raw: string | null): GrantRecord | null {
  const parts = splitGrantKey(key);
  if (!parts || raw === null) return null;
  let grant: Record<string, unknown>;
  try {
    grant = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return null;
  }
  const meta = (grant.metadata ?? {}) as Record<string, unknown>;
  return {
    id: parts.grantId,
    subject: parts.subject,
    clientId: text(grant.clientId) ?? "-",
    scope: Array.isArray(grant.scope) ? grant.scope.map(String) : [],
    createdAt: typeof grant.createdAt === "number" ? grant.createdAt : 0,
    expiresAt: typeof grant.expiresAt === "number" ? grant.expiresAt : null,
    keyId: text(meta.keyId),
    accountId: text(meta.accountId),
    userId: text(meta.userId),
    clientName: text(meta.clientName),
  };
}

function matches(grant: GrantRecord, filter: GrantFilter): boolean {
  return (
    (filter.account === undefined || grant.accountId === filter.account) &&
    (filter.user === undefined || grant.userId === filter.user) &&
    (filter.keyId === undefined || grant.keyId === filter.keyId)
  );
}

/** Every grant in the namespace, oldest first, narrowed by the filter. */
export function listGrants(target: Target, filter: GrantFilter = {}): GrantRecord[] {
  const keys = listKvKeys("grant:", target)
    .map((k) => k.name)
    .filter((n) => splitGrantKey(n) !== null);
  if (keys.length === 0) return [];
  const values = getKvValues(keys, target);
  return keys
    .map((k) => toRecord(k, values.get(k) ?? null))
    .filter((g): g is GrantRecord => g !== null && matches(g, filter))
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

function deleteGrant(grant: GrantRecord, target: Target): void {
  const tokens = listKvKeys(`token:${grant.subject}:${grant.id}:`, target).map((k) => k.name);
  deleteKvKeys([...tokens, `grant:${grant.subject}:${grant.id}`], target);
}

/** Revokes one grant by id; throws when no grant has it. */
export function revokeGrantById(grantId: string, target: Target): GrantRecord {
  if (!GRANT_ID.test(grantId))
    throw new ScriptError(`invalid grant id ${JSON.stringify(grantId)}: see the ID column of grants list`);
  const grant = listGrants(target).find((g) => g.id === grantId);
  if (!grant) throw new ScriptError(`no OAuth grant with id ${grantId} (${target} KV)`);
  deleteGrant(grant, target);
  return grant;
}

/** Revokes every grant made by signing in with the given key; returns them. */
export function revokeGrantsOfKey(keyId: string, target: Target): GrantRecord[] {
  const grants = listGrants(target, { keyId });
  for (const grant of grants) deleteGrant(grant, target);
  return grants;
}
