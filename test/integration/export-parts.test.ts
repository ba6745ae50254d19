/**
 * An export in parts under a tiny PLATFORM_LIMITS (the "limits-export" vitest project: 10 D1 queries
 * per invocation, so a part carries a page or two of 1,000 memories): the parts, joined through their
 * `next` cursors, are the whole export, and a cursor the server did not write is refused. Every part
 * would fail with limit_exceeded if it overran.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { exportAll } from "../helpers/export-parts";
import { seedFacts } from "../helpers/lifecycle";

const directory = new D1ShardDirectory(env.DB);

/** An owner of a fresh account placed on the home database, with `n` memories written as an import stores them. */
async function ownerWith(n: number): Promise<Scope> {
  const account = `acct-${uniqueUser()}`;
  await directory.place(account, "DB", Date.now());
  const owner: Scope = { accountId: account, namespace: "user", userId: uniqueUser(), actor: "test" };
  await seedFacts(owner, n);
  return owner;
}

describe("export in parts", () => {
  it("a store larger than one invocation may read exports completely through next cursors", async () => {
    const owner = await ownerWith(3_000);
    const { key } = await createKey({ account: owner.accountId, user: owner.userId });
    const { parts, lines } = await exportAll(key);
    expect(parts).toBeGreaterThanOrEqual(3);
    expect(lines[0]).toMatchObject({ format: "hippocampus-export", version: 2 });
    expect(lines.filter((l) => l.format !== undefined)).toHaveLength(1);
    const ids = lines.filter((l) => l.type === "memory").map((l) => l.id);
    expect(ids).toHaveLength(3_000);
    expect(new Set(ids).size).toBe(3_000);
    expect(lines.at(-1)).toEqual({ type: "end", memories: 3_000, events: 3_000, entities: 0, relations: 0 });
  });

  it("a cursor this server did not write is refused naming the field", async () => {
    const owner = await ownerWith(1);
    const { key } = await createKey({ account: owner.accountId, user: owner.userId });
    const res = await exports.default.fetch("http://x/v1/export?cursor=bm90LWEtY3Vyc29y", {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_input", field: "cursor" });
  });
});
