/**
 * @module storage/accounts/d1-dashboard-session-store
 * The DashboardSessionStore port (accounts/account-ports.ts) in D1 (migration 0009): looked up by
 * the SHA-256 of the cookie's random token, so a leaked table cannot be replayed as cookies. Expired
 * rows are deleted when someone signs in.
 */
import type { DashboardSessionRecord, DashboardSessionStore } from "../../accounts/account-ports";

export class D1DashboardSessionStore implements DashboardSessionStore {
  constructor(private readonly db: D1Database) {}

  async create(tokenHash: string, row: DashboardSessionRecord, now: number): Promise<void> {
    await this.db.batch([
      this.db.prepare("DELETE FROM dashboard_sessions WHERE expires_at <= ?").bind(now),
      this.db
        .prepare(
          "INSERT INTO dashboard_sessions (token_hash, account_id, user_id, key_id, passphrase_fingerprint, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(tokenHash, row.accountId, row.userId, row.keyId, row.passphraseFingerprint, row.csrf, now, row.expiresAt),
    ]);
  }

  async find(tokenHash: string, now: number): Promise<DashboardSessionRecord | null> {
    const r = await this.db
      .prepare(
        "SELECT account_id, user_id, key_id, passphrase_fingerprint, csrf, expires_at FROM dashboard_sessions WHERE token_hash = ? AND expires_at > ?",
      )
      .bind(tokenHash, now)
      .first<{
        account_id: string;
        user_id: string;
        key_id: string;
        passphrase_fingerprint: string | null;
        csrf: string;
        expires_at: number;
      }>();
    if (!r) return null;
    return {
      accountId: r.account_id,
      userId: r.user_id,
      keyId: r.key_id,
      passphraseFingerprint: r.passphrase_fingerprint,
      csrf: r.csrf,
      expiresAt: r.expires_at,
    };
  }

  async remove(tokenHash: string): Promise<void> {
    await this.db.prepare("DELETE FROM dashboard_sessions WHERE token_hash = ?").bind(tokenHash).run();
  }
}
