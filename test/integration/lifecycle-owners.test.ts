/**
 * The lifecycle's scans (storage/memories/d1-lifecycle-queries.ts: expiring, retention, tombstones, active
 * pages, other-model rows) keep to one owner among owners that share a user id across namespaces
 * and accounts: a person's cron must never expire, purge or re-embed an app end user's memories.
 * A patch by id (MemoryRepo.write, storage/memories/d1-memory-writes.ts) changes the owner's row only, with
 * or without the lifecycle's own `when` predicate, even when handed another owner's ids.
 */
import { env } from "cloudflare:workers";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import type { MemoryWrite } from "../../src/memory/ports";
import { indexTokens } from "../../src/memory/text/tokenize";
import type { Memory, Owner } from "../../src/memory/types";
import {
  listActivePage,
  listExpiring,
  listOtherModel,
  listRetentionExpired,
  listTombstones,
} from "../../src/storage/memories/d1-lifecycle-queries";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { collidingOwners } from "../helpers/odd-owners";

const T = 1_700_000_000_000;

function writeOf(owner: Owner, id: string, fields: Partial<Memory>): MemoryWrite {
  const memory = {
    ...buildMemory({ ...owner, actor: "test" }, id, `hash-${id}`, T, { content: id, agentId: null }),
    ...fields,
  };
  return {
    memory,
    ftsTokens: indexTokens(id).join(" "),
    event: { memoryId: id, op: "create", before: null, after: memory, actor: "test", at: T },
  };
}

describe("lifecycle scans per owner", () => {
  it("expiring, retention, tombstone, active-page and other-model scans return the owner's rows only", async () => {
    const owners = collidingOwners("lc-own");
    const repo = new D1MemoryRepo(env.DB);
    const idsOf = owners.map((_, i) => {
      const tag = `lc-own-${i}-${crypto.randomUUID().slice(0, 8)}`;
      return { expiring: `${tag}-exp`, tombstone: `${tag}-del`, indexed: `${tag}-idx` };
    });
    for (const [i, o] of owners.entries()) {
      const ids = idsOf[i];
      await repo.write(
        o,
        [
          writeOf(o, ids.expiring, { expiresAt: T + 1 }),
          writeOf(o, ids.tombstone, { status: "deleted", deletedAt: T }),
          writeOf(o, ids.indexed, { embeddingModel: "old-model", indexedAt: T }),
        ],
        [],
      );
    }
    const db = drizzle(env.DB);
    const rule = { memoryType: "semantic" as const, days: 1 };
    for (const [i, o] of owners.entries()) {
      const who = JSON.stringify(o);
      const ids = idsOf[i];
      const idsIn = (rows: Memory[]) => rows.map((m) => m.id).sort();
      expect(idsIn(await listExpiring(db, o, T + 2, 50)), `expiring ${who}`).toEqual([ids.expiring]);
      expect(idsIn(await listTombstones(db, o, T + 2, 50)), `tombstones ${who}`).toEqual([ids.tombstone]);
      expect(idsIn(await listOtherModel(db, o, "new-model", 50)), `other model ${who}`).toEqual([ids.indexed]);
      expect(idsIn(await listRetentionExpired(db, o, rule, T + 2, 50)), `retention ${who}`).toEqual(
        [ids.expiring, ids.indexed].sort(),
      );
      expect(idsIn(await listActivePage(db, o, { after: null, limit: 50 })), `active ${who}`).toEqual(
        [ids.expiring, ids.indexed].sort(),
      );
    }
  });

  it("a patch by id changes the owner's own row only, handed every owner's ids", async () => {
    const owners = collidingOwners("patch-own");
    const repo = new D1MemoryRepo(env.DB);
    const ids = owners.map((_, i) => `patch-own-${i}-${crypto.randomUUID().slice(0, 8)}`);
    for (const [i, o] of owners.entries()) await repo.write(o, [writeOf(o, ids[i], {})], []);
    const event = { op: "update" as const, before: null, after: null, actor: "test", at: T + 1 };
    for (const [i, o] of owners.entries())
      await repo.write(
        o,
        [],
        ids.map((id, j) => ({
          id,
          changes: { content: `patched by ${i}`, updatedAt: T + 1 },
          ...(j % 2 === 0 ? { when: { status: "active" as const, updatedAt: T } } : {}),
          event,
        })),
      );
    for (const [i, o] of owners.entries())
      expect((await repo.get(o, ids[i]))?.content, JSON.stringify(o)).toBe(`patched by ${i}`);
  });
});
