/**
 * @module http/key-cache
 * A short-lived, size-bounded cache of API key rows by key hash, per Worker isolate, so a busy
 * client's requests skip the D1 lookup. Only keys found live are cached (unknown keys never fill it).
 * A revoked key stops working within KEY_CACHE_TTL_MS in every isolate, and at once in an isolate
 * that sees the revocation (a grant's or dashboard session's check finds the key revoked, and
 * `forgetApiKey` drops it). Oldest entries leave first when it is full.
 */
import type { ApiKeyRecord } from "../accounts/account-ports";

/** How long a live key is trusted without asking D1 again: the bound on a revocation elsewhere. */
export const KEY_CACHE_TTL_MS = 10_000;

export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now: number): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches (a revoked key, found by its id). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, hit] of this.entries) if (matches(hit.value)) this.entries.delete(key);
  }
}

/** This isolate's live API keys by key hash. */
export const apiKeyCache = new TtlCache<ApiKeyRecord>(KEY_CACHE_TTL_MS, 1_000);

/** A key this isolate found revoked stops working here at once. */
export function forgetApiKey(keyId: string): void {
  apiKeyCache.deleteWhere((row) => row.id === keyId);
}
