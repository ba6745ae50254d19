/**
 * @module http/key-cache
 * A short-lived, size-bounded cache of API key rows by key hash, per Worker isolate, so a busy
 * client's requests skip the D1 lookup. Only keys found live are cached (unknown keys never fill it);
 * a revoked key stops working within the TTL. Oldest entries leave first when it is full.
 */

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

  /** Drops every entry whose value matches (a revoked key, found by its id rather than its hash). */
  deleteWhere(matches: (value: V) => boolean): void {
    for (const [key, hit] of this.entries) if (matches(hit.value)) this.entries.delete(key);
  }
}
