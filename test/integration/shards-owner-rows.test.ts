/**
 * A shard move copies one owner's rows (shards/d1-owner-rows.ts): among a person and two apps' end
 * users with one user id in one account, copying the person copies the person's memories, events
 * and FTS rows only, and the owner sums of the others stay empty on the target. In the "shards"
 * vitest project (two D1 bindings).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { copyOwnerRows, ownerSums } from "../../src/shards/d1-owner-rows";
import { uniqueUser } from "../helpers/api-keys";
import { ok, stubOf } from "../helpers/lifecycle";

const SHARD = env.DB_SHARD_1!;

describe("owner rows of a shard move", () => {
  it("copies the owner's rows only, among owners who share a user id across namespaces", async () => {
    const accountId = uniqueUser("acct");
    const userId = uniqueUser("alice");
    const owners: Scope[] = ["user", "app:bot-a", "app:bot-b"].map((namespace) => ({
      accountId,
      namespace,
      userId,
      actor: "test",
    }));
    for (const o of owners) await ok(stubOf(o).save(o, { content: `Lives in ${o.namespace} land, near the harbour` }));
    const [person, ...apps] = owners;
    const source = await ownerSums(env.DB, person);
    expect(source.memories?.rows).toBe(1);
    const copied = await copyOwnerRows(env.DB, SHARD, person);
    expect(copied).toEqual(source);
    expect(await ownerSums(SHARD, person)).toEqual(source);
    for (const o of apps) {
      const sums = await ownerSums(SHARD, o);
      for (const [table, sum] of Object.entries(sums)) expect(sum.rows, `${o.namespace} ${table}`).toBe(0);
    }
  });
});
