/**
 * Shards (docs/shards.md), in the "shards" vitest project: MEMORY_SHARDS = DB, DB_SHARD_1, both real
 * D1 databases with every migration. Placement, isolation between shards, the cron over both, and
 * the Worker-side paths (export, /health, the admin listing) reading the right database.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import type { Scope } from "../../src/memory/types";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { chooseShard, resolveOwnerShard } from "../../src/shards/shard-placement";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { DAY, ok, runCron, stubOf } from "../helpers/lifecycle";

const SHARD = env.DB_SHARD_1!;
/** As the "shards" project sets it (vitest.config.ts). */
const ADMIN_SECRET = "test-admin-secret-0123456789abcdef";
const directory = new D1ShardDirectory(env.DB);

function ownerIn(accountId: string, userId = uniqueUser()): Scope {
  return { accountId, namespace: "user", userId, actor: "test" };
}

async function rowsOf(db: D1Database, owner: Scope): Promise<number> {
  return (await db
    .prepare("SELECT count(*) AS n FROM memories WHERE account_id = ? AND namespace = ? AND user_id = ?")
    .bind(owner.accountId, owner.namespace, owner.userId)
    .first<number>("n"))!;
}

describe("placement", () => {
  it("puts a new account on the shard with the most room, and every later owner of it there too", async () => {
    // The home database grows by ~1 MB first: DB_SHARD_1 now has the most room.
    await env.DB.exec("CREATE TABLE IF NOT EXISTS ballast (b BLOB)");
    await env.DB.prepare("INSERT INTO ballast VALUES (zeroblob(1048576))").run();
    const first = ownerIn(`acct-${uniqueUser()}`);
    await ok(stubOf(first).save(first, { content: "Keeps bees on the roof of the studio" }));
    expect((await directory.account(first.accountId))?.shard).toBe("DB_SHARD_1");
    expect(await rowsOf(SHARD, first)).toBe(1);
    expect(await rowsOf(env.DB, first)).toBe(0);
    // A second user of the same account follows the account, whatever the sizes say by now.
    const second = ownerIn(first.accountId);
    await ok(stubOf(second).save(second, { content: "Prefers window seats on trains" }));
    expect(await directory.knownOwnerShard(second)).toBe("DB_SHARD_1");
    expect(await rowsOf(SHARD, second)).toBe(1);
  });

  it("weighs shards by bytes per weight; weight 0 closes a shard to new accounts", async () => {
    const sizes = [
      { binding: "DB", bytes: 4_000 },
      { binding: "DB_SHARD_1", bytes: 6_000 },
    ];
    expect(chooseShard(sizes, {})).toBe("DB");
    expect(chooseShard(sizes, { DB_SHARD_1: 2 })).toBe("DB_SHARD_1");
    expect(chooseShard(sizes, { DB: 0 })).toBe("DB_SHARD_1");
    const later = Date.now() + 10 * 60_000; // past the size cache
    const placed = await resolveOwnerShard(
      env,
      { shards: ["DB", "DB_SHARD_1"], weights: { DB_SHARD_1: 0 } },
      ownerIn(`acct-${uniqueUser()}`),
      later,
    );
    expect(placed.binding).toBe("DB");
  });

  it("keeps an account that already has rows on the home database there", async () => {
    const owner = ownerIn(`acct-${uniqueUser()}`);
    await env.DB.prepare(
      "INSERT INTO memories (id, account_id, namespace, user_id, content, content_hash, created_at, updated_at) VALUES (?, ?, ?, ?, 'old row', 'h', 1, 1)",
    )
      .bind(`01OLD${uniqueUser()}`, owner.accountId, owner.namespace, owner.userId)
      .run();
    const placed = await resolveOwnerShard(
      env,
      { shards: ["DB", "DB_SHARD_1"], weights: { DB: 0.0001 } },
      owner,
      Date.now() + 20 * 60_000,
    );
    expect(placed.binding).toBe("DB");
  });
});

describe("isolation across shards", () => {
  it("one user id in two accounts on two shards: each sees only its own memories", async () => {
    const userId = uniqueUser();
    const a = ownerIn(`acct-a-${userId}`, userId);
    const b = ownerIn(`acct-b-${userId}`, userId);
    await directory.place(a.accountId, "DB", Date.now());
    await directory.place(b.accountId, "DB_SHARD_1", Date.now());
    await ok(stubOf(a).save(a, { content: "The garage code is kept by the neighbour in flat 3" }));
    await ok(stubOf(b).save(b, { content: "The garage has a red door and a broken lamp" }));
    expect([await rowsOf(env.DB, a), await rowsOf(SHARD, a)]).toEqual([1, 0]);
    expect([await rowsOf(env.DB, b), await rowsOf(SHARD, b)]).toEqual([0, 1]);
    const foundA = await ok(stubOf(a).recall(a, { query: "garage" }));
    const foundB = await ok(stubOf(b).recall(b, { query: "garage" }));
    expect(foundA.results.map((r) => r.memory.content)).toEqual(["The garage code is kept by the neighbour in flat 3"]);
    expect(foundB.results.map((r) => r.memory.content)).toEqual(["The garage has a red door and a broken lamp"]);
    expect((await ok(stubOf(b).stats(b))).total).toBe(1);
  });

  it("export reads the owner's shard", async () => {
    const account = `acct-x-${uniqueUser()}`;
    const userId = uniqueUser();
    await directory.place(account, "DB_SHARD_1", Date.now());
    const owner = ownerIn(account, userId);
    await ok(stubOf(owner).save(owner, { content: "Learning the cello since March" }));
    const { key } = await createKey({ user: userId, account });
    const res = await exports.default.fetch(
      new Request("http://x/v1/export", { headers: { authorization: `Bearer ${key}` } }),
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("Learning the cello since March");
    expect(res.headers.get("x-memory-count")).toBe("1");
  });
});

describe("cron over both shards", () => {
  it("expires due memories of owners on each shard", async () => {
    const onHome = ownerIn(`acct-h-${uniqueUser()}`);
    const onShard = ownerIn(`acct-s-${uniqueUser()}`);
    await directory.place(onHome.accountId, "DB", Date.now());
    await directory.place(onShard.accountId, "DB_SHARD_1", Date.now());
    for (const owner of [onHome, onShard]) {
      await ok(
        stubOf(owner).save(owner, {
          content: `Parking permit for ${owner.accountId} is valid this week`,
          ttl_days: 1,
        }),
      );
    }
    await runCron({ scheduledTime: Date.now() + 2 * DAY });
    for (const [db, owner] of [
      [env.DB, onHome],
      [SHARD, onShard],
    ] as const) {
      const row = await db
        .prepare("SELECT status FROM memories WHERE account_id = ? AND user_id = ?")
        .bind(owner.accountId, owner.userId)
        .first<string>("status");
      expect(row, ownerAddress(owner)).toBe("expired");
    }
  });
});

describe("operator views", () => {
  it("/health reports each shard's status and size", async () => {
    const res = await exports.default.fetch(new Request("http://x/health"));
    const body = (await res.json()) as { storage: { shards: { binding: string; status: string; bytes: number }[] } };
    expect(body.storage.shards.map((s) => [s.binding, s.status])).toEqual([
      ["DB", "ok"],
      ["DB_SHARD_1", "ok"],
    ]);
    for (const s of body.storage.shards) expect(s.bytes).toBeGreaterThan(0);
  });

  it("/admin/shards lists what each shard holds, for the admin secret only", async () => {
    const owner = ownerIn(`acct-l-${uniqueUser()}`);
    await directory.place(owner.accountId, "DB_SHARD_1", Date.now());
    await ok(stubOf(owner).save(owner, { content: "Allergic to hazelnuts" }));
    const denied = await exports.default.fetch(
      new Request("http://x/admin/shards", { headers: { authorization: "Bearer nope" } }),
    );
    expect(denied.status).toBe(401);
    const res = await exports.default.fetch(
      new Request("http://x/admin/shards", { headers: { authorization: `Bearer ${ADMIN_SECRET}` } }),
    );
    const body = (await res.json()) as { shards: Record<string, unknown>[] };
    expect(body.shards.map((s) => s.binding)).toEqual(["DB", "DB_SHARD_1"]);
    const shard1 = body.shards[1];
    expect(Object.keys(shard1).sort()).toEqual(["accounts", "binding", "bytes", "memories", "users"]);
    expect(shard1.memories).toBe(await SHARD.prepare("SELECT count(*) AS n FROM memories").first("n"));
    expect(shard1.accounts).toBeGreaterThanOrEqual(1);
  });
});
