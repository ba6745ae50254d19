import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { uniqueUser } from "../helpers/api-keys";
import {
  DAY,
  eventsOf,
  fireCron,
  insertMemories,
  ok,
  ownerOf,
  rowOf,
  runCron,
  stubOf,
  withDeps,
} from "../helpers/lifecycle";

const EPISODIC_90_PIN_1 = JSON.stringify([{ memory_type: "episodic", days: 90, keep_priority_at_most: 1 }]);

async function ftsRows(id: string): Promise<number> {
  const r = await env.DB.prepare("SELECT count(*) AS n FROM memories_fts WHERE memory_id = ?")
    .bind(id)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

describe("expiry on the cron", () => {
  it("expires a ttl_days 0 memory: status expired, expire event, out of recall and out of the index", async () => {
    const owner = ownerOf(uniqueUser());
    const stub = stubOf(owner);
    const gone = await ok(stub.save(owner, { content: "Parking spot B12 today", ttl_days: 0 }));
    const keep = await ok(stub.save(owner, { content: "Parking permit renews in March" }));
    expect(await withDeps(owner, async (d) => (await d.index.listIds!(owner))!.sort())).toEqual(
      [gone.id, keep.id].sort(),
    );

    await fireCron(Date.now() + 1000);

    const row = await rowOf(gone.id!);
    expect(row?.status).toBe("expired");
    expect(row?.deleted_at).not.toBeNull();
    const events = await eventsOf(gone.id!);
    expect(events.map((e) => e.op)).toEqual(["create", "expire"]);
    expect(events[1].actor).toBe("cron");
    expect(JSON.parse(events[1].after!)).toMatchObject({ status: "expired", reason: "expires_at reached" });
    expect((await rowOf(keep.id!))?.status).toBe("active");
    expect(await withDeps(owner, async (d) => d.index.listIds!(owner))).toEqual([keep.id]);
    const recall = await ok(stub.recall(owner, { query: "parking spot", limit: 5 }));
    expect(recall.results.map((r) => r.memory.id)).toEqual([keep.id]);
  });

  it("applies retention rules from config: old episodic memories expire unless pinned by priority 1", async () => {
    const owner = ownerOf(uniqueUser());
    const old = Date.now() - 100 * DAY;
    const [trip, pinned, fact, recent] = await insertMemories(owner, [
      { content: "Went hiking on the Alps trail", memoryType: "episodic", priority: 3, createdAt: old },
      { content: "Wedding day in Lisbon", memoryType: "episodic", priority: 1, createdAt: old },
      { content: "Allergic to peanuts", memoryType: "semantic", priority: 3, createdAt: old },
      { content: "Had sushi for lunch", memoryType: "episodic", priority: 3, createdAt: Date.now() - 10 * DAY },
    ]);
    await runCron({ vars: { RETENTION_RULES: EPISODIC_90_PIN_1 } });
    expect((await rowOf(trip.id))?.status).toBe("expired");
    expect(JSON.parse((await eventsOf(trip.id)).at(-1)!.after!).reason).toBe(
      "retention rule: episodic memories live 90 days unless priority ≤ 1",
    );
    for (const m of [pinned, fact, recent]) expect((await rowOf(m.id))?.status).toBe("active");
  });

  it("rejects a malformed RETENTION_RULES loudly instead of expiring by accident", async () => {
    await expect(runCron({ vars: { RETENTION_RULES: '[{"days":90}]' } })).rejects.toThrow(
      /RETENTION_RULES\.0.*category or memory_type/,
    );
    await expect(runCron({ vars: { RETENTION_RULES: "episodic:90" } })).rejects.toThrow(/RETENTION_RULES.*JSON array/);
  });
});

describe("purge on the cron", () => {
  it("with retention 0, purges a deleted memory from D1, FTS and the index, keeping a content-free purge record", async () => {
    const owner = ownerOf(uniqueUser());
    const stub = stubOf(owner);
    const saved = await ok(stub.save(owner, { content: "My locker code is on the blue note" }));
    await ok(stub.delete(owner, { id: saved.id! }));
    // A stale vector (an earlier unindex that failed) must go too: purge deletes by id.
    await withDeps(owner, async (d) =>
      d.index.upsert(owner, [{ id: saved.id!, vector: (await d.embedder.embed(["x"]))[0] }]),
    );

    await runCron({ vars: { SOFT_DELETE_RETENTION_DAYS: "0" } });

    expect(await rowOf(saved.id!)).toBeNull();
    expect(await ftsRows(saved.id!)).toBe(0);
    expect(await withDeps(owner, async (d) => d.index.listIds!(owner))).toEqual([]);
    const events = await eventsOf(saved.id!);
    expect(events.map((e) => e.op)).toEqual(["create", "delete", "purge"]);
    expect(events.every((e) => e.before === null && e.after === null)).toBe(true);
    expect(JSON.stringify(events)).not.toContain("locker");
    const history = await stub.history(owner, saved.id!);
    expect(history.ok).toBe(false);
  });

  it("keeps tombstones for SOFT_DELETE_RETENTION_DAYS (30) and purges deleted, expired and superseded ones after", async () => {
    const owner = ownerOf(uniqueUser());
    const now = Date.now();
    const [deleted, expired, superseded, active] = await insertMemories(owner, [
      { content: "deleted tombstone", status: "deleted", deletedAt: now, updatedAt: now },
      { content: "expired tombstone", status: "expired", deletedAt: now, updatedAt: now },
      { content: "superseded tombstone", status: "superseded", updatedAt: now },
      { content: "still active and old", createdAt: now - 400 * DAY },
    ]);
    await runCron({ scheduledTime: now + 29 * DAY });
    for (const m of [deleted, expired, superseded]) expect(await rowOf(m.id)).not.toBeNull();
    await runCron({ scheduledTime: now + 31 * DAY });
    for (const m of [deleted, expired, superseded]) expect(await rowOf(m.id)).toBeNull();
    expect((await rowOf(active.id))?.status).toBe("active");
  });

  it("purges a deleted quarantined memory after the retention, never one still under review", async () => {
    const owner = ownerOf(uniqueUser());
    const now = Date.now();
    const [deleted, held] = await insertMemories(owner, [
      { content: "deleted quarantined", status: "quarantined", deletedAt: now, updatedAt: now },
      { content: "quarantined under review", status: "quarantined", updatedAt: now },
    ]);
    await runCron({ scheduledTime: now + 29 * DAY });
    expect(await rowOf(deleted.id)).not.toBeNull();
    await runCron({ scheduledTime: now + 31 * DAY });
    expect(await rowOf(deleted.id)).toBeNull();
    expect((await rowOf(held.id))?.status).toBe("quarantined");
  });

  it("never purges another user's tombstones through this user's run", async () => {
    const alice = ownerOf(uniqueUser("alice"));
    const bob = ownerOf(uniqueUser("bob"));
    const [a] = await insertMemories(alice, [
      { content: "alice tombstone", status: "deleted", deletedAt: Date.now() - 40 * DAY },
    ]);
    const [b] = await insertMemories(bob, [
      { content: "bob tombstone", status: "deleted", deletedAt: Date.now() - 40 * DAY },
    ]);
    const report = await ok(
      stubOf(alice).maintain(alice, {
        now: Date.now(),
        jobs: ["purge"],
        budget: { maxMs: 5000, maxRows: 100 },
        policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
      }),
    );
    expect(report.jobs[0]).toMatchObject({ job: "purge", changed: 1, complete: true });
    expect(await rowOf(a.id)).toBeNull();
    expect(await rowOf(b.id)).not.toBeNull();
  });
});
