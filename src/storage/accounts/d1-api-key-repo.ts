/**
 * @module storage/accounts/d1-api-key-repo
 * API keys in D1, looked up by the SHA-256 of the presented key (keys themselves are never stored).
 * The key format is storage/api-key-format.ts.
 */
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import { type ApiKeyRow, apiKeys } from "../schema";
import { API_KEY_PATTERN, sha256Hex } from "./api-key-format";

export const LAST_USED_GRANULARITY_MS = 60_000;

export class D1ApiKeyRepo {
  private readonly db: DrizzleD1Database;

  constructor(d1: D1Database) {
    this.db = drizzle(d1);
  }

  /** The live (unrevoked) key row for a presented key, or null. */
  async findActive(presentedKey: string): Promise<ApiKeyRow | null> {
    if (!API_KEY_PATTERN.test(presentedKey)) return null;
    return this.findActiveByHash(await sha256Hex(presentedKey));
  }

  /** The live key row with this SHA-256 hex hash, or null. */
  async findActiveByHash(hash: string): Promise<ApiKeyRow | null> {
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<ApiKeyRow | null> {
    const rows = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
    return rows[0] ?? null;
  }

  /** Records use at most once a minute per key, so auth stays one read on the hot path. */
  async touch(id: string, now: number): Promise<void> {
    await this.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_GRANULARITY_MS))),
      );
  }

  async countActive(): Promise<number> {
    const rows = await this.db.select({ id: apiKeys.id }).from(apiKeys).where(isNull(apiKeys.revokedAt)).limit(1);
    return rows.length;
  }

  /** A person's own user keys (their devices), newest first, revoked ones included. */
  async listForUser(accountId: string, userId: string): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.userId, userId), eq(apiKeys.scope, "user")))
      .orderBy(desc(apiKeys.createdAt))
      .limit(200);
  }

  /**
   * Revokes one of a person's own user keys; the predicate carries the owner, so an id of another
   * person's key changes nothing. Revoking twice keeps the first time. The row as it now is, or null
   * when the id is not one of this person's keys.
   */
  async revokeForUser(id: string, accountId: string, userId: string, now: number): Promise<ApiKeyRow | null> {
    const owned = and(
      eq(apiKeys.id, id),
      eq(apiKeys.accountId, accountId),
      eq(apiKeys.userId, userId),
      eq(apiKeys.scope, "user"),
    );
    await this.db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(owned, isNull(apiKeys.revokedAt)));
    const rows = await this.db.select().from(apiKeys).where(owned).limit(1);
    return rows[0] ?? null;
  }

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insert(apiKeys).values(row);
  }
}
