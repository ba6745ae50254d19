/**
 * A shard move carries the owner's entities with its memories (shards/d1-owner-rows.ts): after the
 * move the target holds every entity row once, the source none, and the owner's object reads them there.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { moveAccountStep } from "../../src/shards/move-account";
import { uniqueUser } from "../helpers/api-keys";
import { ok, stubOf } from "../helpers/lifecycle";

const TABLES = ["entities", "entity_keys", "entity_mentions", "entity_relations"];

async function counts(db: D1Database, o: Scope): Promise<number[]> {
  const out: number[] = [];
  for (const t of TABLES) {
    const n = await db
      .prepare(`SELECT count(*) AS n FROM ${t} WHERE account_id = ? AND namespace = ? AND user_id = ?`)
      .bind(o.accountId, o.namespace, o.userId)
      .first<number>("n");
    out.push(n ?? 0);
  }
  return out;
}

describe("a shard move and entities", () => {
  it("moves the owner's entity rows with its memories", async () => {
    const account = `acct-ent-${uniqueUser()}`;
    await new D1ShardDirectory(env.DB).place(account, "DB", Date.now());
    const owner: Scope = { accountId: account, namespace: "user", userId: uniqueUser(), actor: "test" };
    const stub = stubOf(owner);
    await ok(stub.save(owner, { content: "My sister Ana lives in Bergen" }));
    await ok(stub.save(owner, { content: "Ana works at Equinor Group as an engineer" }));
    const before = await counts(env.DB, owner);
    expect(before.every((n) => n > 0)).toBe(true);
    for (let i = 0; i < 20; i++) if ((await moveAccountStep(env, account, "DB_SHARD_1", 5)).done) break;
    expect(await counts(env.DB, owner)).toEqual([0, 0, 0, 0]);
    expect(await counts(env.DB_SHARD_1!, owner)).toEqual(before);
    const ana = await ok(stub.describeEntity(owner, "sister"));
    expect(ana?.memoryIds.length).toBe(2);
  });
});
