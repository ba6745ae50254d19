/**
 * @module storage/accounts/d1-client-registration-store
 * The ClientRegistrationStore port (accounts/account-ports.ts) in D1: the OAuth clients dynamic client registration stored (migration 0016): when each was registered
 * and when a person first authorised it. Kept in D1 beside the OAuth library's own KV records so a
 * registration can find, in one indexed read, the clients to evict: those never authorised within a
 * day, and the oldest never-authorised ones past the cap on how many may be held at once. A client
 * registered before migration 0016 has no row and is never evicted. Rows carry no user data.
 */
import type { ClientRegistrationStore } from "../../accounts/account-ports";

export class D1ClientRegistrationStore implements ClientRegistrationStore {
  constructor(private readonly db: D1Database) {}

  /**
   * Clients to evict before one more registers: never authorised and registered before `staleBefore`,
   * then the oldest never-authorised ones beyond the newest `keep`; at most `limit` in all.
   */
  async evictable(staleBefore: number, keep: number, limit: number): Promise<string[]> {
    const [stale, overflow] = await this.db.batch<{ client_id: string }>([
      this.db
        .prepare(
          "SELECT client_id FROM oauth_client_registrations WHERE authorized_at IS NULL AND registered_at < ? ORDER BY registered_at, client_id LIMIT ?",
        )
        .bind(staleBefore, limit),
      this.db
        .prepare(
          "SELECT client_id FROM oauth_client_registrations WHERE authorized_at IS NULL ORDER BY registered_at DESC, client_id DESC LIMIT ? OFFSET ?",
        )
        .bind(limit, keep),
    ]);
    const ids = new Set([...stale.results, ...overflow.results].map((r) => r.client_id));
    return [...ids].slice(0, limit);
  }

  /**
   * Forgets these clients' rows while still never authorised (one may have been since it was read),
   * and answers those it forgot: only they may be deleted from the OAuth library's store.
   */
  async forget(clientIds: string[]): Promise<string[]> {
    if (clientIds.length === 0) return [];
    const { results } = await this.db
      .prepare(
        "DELETE FROM oauth_client_registrations WHERE authorized_at IS NULL AND client_id IN (SELECT value FROM json_each(?)) RETURNING client_id",
      )
      .bind(JSON.stringify(clientIds))
      .all<{ client_id: string }>();
    return results.map((r) => r.client_id);
  }

  /** A client the OAuth library stored. */
  async registered(clientId: string, at: number): Promise<void> {
    await this.db
      .prepare("INSERT INTO oauth_client_registrations (client_id, registered_at) VALUES (?, ?) ON CONFLICT DO NOTHING")
      .bind(clientId, at)
      .run();
  }

  /** A person approved this client: it is kept from now on. */
  async authorized(clientId: string, at: number): Promise<void> {
    await this.db
      .prepare("UPDATE oauth_client_registrations SET authorized_at = ? WHERE client_id = ? AND authorized_at IS NULL")
      .bind(at, clientId)
      .run();
  }
}
