/**
 * @module storage/accounts/d1-api-key-store
 * The ApiKeyStore port (accounts/account-ports.ts) over D1's `api_keys`, looked up by the SHA-256 of
 * the presented key (keys themselves are never stored). The key format is accounts/api-key-format.ts.
 */
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import {
  type ApiKeyRecord,
  type ApiKeyStore,
  DEVICE_LIST_MAX,
  LAST_USED_GRANULARITY_MS,
} from "../../accounts/account-ports";
import { API_KEY_PATTERN, sha256Hex } from "../../accounts/api-key-format";
import { apiKeys } from "../schema";

export class D1ApiKeyStore implements ApiKeyStore {
  private readonly db: DrizzleD1Database;

  constructor(d1: D1Database) {
    this.db = drizzle(d1);
  }

  async findActive(presentedKey: string): Promise<ApiKeyRecord | null> {
    if (!API_KEY_PATTERN.test(presentedKey)) return null;
    return this.findActiveByHash(await sha256Hex(presentedKey));
  }

  async findActiveByHash(hash: string): Promise<ApiKeyRecord | null> {
    const rows = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
      .limit(1);
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    const rows = await this.db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
    return rows[0] ?? null;
  }

  /** One UPDATE whose predicate skips a key used within the granularity, so auth stays one read. */
  async touch(id: string, now: number): Promise<void> {
    await this.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, now - LAST_USED_GRANULARITY_MS))),
      );
  }

  async listForUser(accountId: string, userId: string): Promise<ApiKeyRecord[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.accountId, accountId), eq(apiKeys.userId, userId), eq(apiKeys.scope, "user")))
      .orderBy(desc(apiKeys.createdAt))
      .limit(DEVICE_LIST_MAX);
  }

  /** The UPDATE and the read back both carry the owner and the user scope. */
  async revokeForUser(id: string, accountId: string, userId: string, now: number): Promise<ApiKeyRecord | null> {
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

  async insert(record: ApiKeyRecord): Promise<void> {
    await this.db.insert(apiKeys).values(record);
  }
}
