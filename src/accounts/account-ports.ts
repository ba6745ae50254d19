/**
 * @module accounts/account-ports
 * The account data the Worker's own routes keep beside the memories: API keys, dashboard sessions,
 * the OAuth clients dynamic registration stored, and the legacy SSE sessions this server issued.
 * Each is a port described by what its callers (http/) need; the D1 adapters in storage/accounts/
 * implement them and the composition root builds them (`buildAccountStores`), so no route imports
 * storage/. accounts/ imports only accounts/ (no adapter, no wiring, no Cloudflare binding type).
 * The behaviour every adapter must have is test/conformance/account-stores-suite.ts.
 */

/** One `api_keys` row: a key is stored only as its SHA-256 (accounts/api-key-format.ts). */
export interface ApiKeyRecord {
  id: string;
  keyHash: string;
  accountId: string;
  /** The person of a user key; null for an app key. */
  userId: string | null;
  /** The app of an app key; null for a user key. */
  appName: string | null;
  /** "user" or "app" (anything else is treated as a user key by auth). */
  scope: string;
  label: string | null;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

/** A key's last use is recorded at most this often, so auth stays one read on the hot path. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/** Most of one person's keys a device list shows. */
export const DEVICE_LIST_MAX = 200;

export interface ApiKeyStore {
  /** The live (unrevoked) key for a presented key, or null (also for a string that is not a key). */
  findActive(presentedKey: string): Promise<ApiKeyRecord | null>;
  /** The live key with this lowercase hex SHA-256, or null. */
  findActiveByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** A key by id, revoked or not, or null. */
  findById(id: string): Promise<ApiKeyRecord | null>;
  /** Records use at `now` unless one was recorded less than LAST_USED_GRANULARITY_MS before. */
  touch(id: string, now: number): Promise<void>;
  /** A person's own user keys (their devices), newest first, revoked ones included, at most DEVICE_LIST_MAX. */
  listForUser(accountId: string, userId: string): Promise<ApiKeyRecord[]>;
  /**
   * Revokes one of a person's own user keys; the predicate carries the owner, so another person's
   * key id changes nothing. Revoking twice keeps the first time. The key as it now is, or null when
   * the id is not one of this person's user keys.
   */
  revokeForUser(id: string, accountId: string, userId: string, now: number): Promise<ApiKeyRecord | null>;
  insert(record: ApiKeyRecord): Promise<void>;
}

/** Who signed in to the dashboard, with what, and until when. */
export interface DashboardSessionRecord {
  accountId: string;
  userId: string;
  keyId: string;
  passphraseFingerprint: string | null;
  csrf: string;
  expiresAt: number;
}

/** Dashboard sessions by the SHA-256 of the cookie's token (a leaked store cannot be replayed as cookies). */
export interface DashboardSessionStore {
  /** Stores a session; expired ones (expiresAt ≤ now) are removed on the way. */
  create(tokenHash: string, record: DashboardSessionRecord, now: number): Promise<void>;
  /** The session while it has not expired (expiresAt > now), or null. */
  find(tokenHash: string, now: number): Promise<DashboardSessionRecord | null>;
  remove(tokenHash: string): Promise<void>;
}

/** The OAuth clients registered here and whether a person has approved each (eviction of the others). */
export interface ClientRegistrationStore {
  /**
   * Clients to evict before one more registers: never authorised and registered before `staleBefore`,
   * then the oldest never-authorised ones beyond the newest `keep`; at most `limit` in all.
   */
  evictable(staleBefore: number, keep: number, limit: number): Promise<string[]>;
  /** Forgets these clients while still never authorised, and answers those it forgot. */
  forget(clientIds: string[]): Promise<string[]>;
  /** A client the OAuth library stored (registering one twice keeps the first time). */
  registered(clientId: string, at: number): Promise<void>;
  /** A person approved this client: it is never evictable again (the first approval's time stays). */
  authorized(clientId: string, at: number): Promise<void>;
}

/** The legacy SSE sessions this server issued, each bound to the credential that opened it. */
export interface SseSessionStore {
  /** Records a session; sessions older than maxAgeMs are pruned a bounded number at a time. */
  issue(id: string, credential: string, now: number, maxAgeMs: number): Promise<void>;
  /** True when `id` was issued to `credential` no longer than maxAgeMs before `now`. */
  isBound(id: string, credential: string, now: number, maxAgeMs: number): Promise<boolean>;
}

/** Every account store of one deployment (they live on the first D1 database, `DB`). */
export interface AccountStores {
  apiKeys: ApiKeyStore;
  dashboardSessions: DashboardSessionStore;
  clientRegistrations: ClientRegistrationStore;
  sseSessions: SseSessionStore;
}
