/**
 * @module storage/accounts/d1-sse-session-store
 * The SseSessionStore port (accounts/account-ports.ts) in D1: the legacy SSE sessions this server issued, each with the credential that opened it. D1, not the
 * session's Durable Object, so a message for an id nobody issued is refused without creating one.
 */
import { and, eq, inArray, lt } from "drizzle-orm";
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { SseSessionStore } from "../../accounts/account-ports";
import { sseSessions } from "../schema";

/** Stale sessions removed per issue, so pruning stays bounded. */
const PRUNE_BATCH = 100;

export class D1SseSessionStore implements SseSessionStore {
  private readonly db: DrizzleD1Database;

  constructor(d1: D1Database) {
    this.db = drizzle(d1);
  }

  async issue(id: string, credential: string, now: number, maxAgeMs: number): Promise<void> {
    const stale = this.db
      .select({ id: sseSessions.id })
      .from(sseSessions)
      .where(lt(sseSessions.createdAt, now - maxAgeMs))
      .limit(PRUNE_BATCH);
    await this.db.batch([
      this.db.delete(sseSessions).where(inArray(sseSessions.id, stale)),
      this.db.insert(sseSessions).values({ id, credential, createdAt: now }),
    ]);
  }

  /** True when `id` was issued to `credential` no longer than maxAgeMs ago. */
  async isBound(id: string, credential: string, now: number, maxAgeMs: number): Promise<boolean> {
    const rows = await this.db
      .select({ createdAt: sseSessions.createdAt })
      .from(sseSessions)
      .where(and(eq(sseSessions.id, id), eq(sseSessions.credential, credential)))
      .limit(1);
    return rows.length > 0 && rows[0].createdAt >= now - maxAgeMs;
  }
}
