/**
 * One queue per user for every mutation, and lifecycle DELETE/UPDATE statements
 * that carry their own predicate. Each race is run in both orders: through the Durable Object (calls
 * issued together, so only the queue orders them) and against the repository with a stale selection
 * (what a job holds when a change lands between its SELECT and its write).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expirePatch } from "../../src/memory/lifecycle/expire-memories";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { uniqueUser } from "../helpers/api-keys";
import { DAY, eventsOf, insertMemories, ownerOf, rowOf, stubOf } from "../helpers/lifecycle";

const policy = { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 };
const budget = { maxMs: 5000, maxRows: 100 };

async function oldTombstone(owner: ReturnType<typeof ownerOf>) {
  const [m] = await insertMemories(owner, [
    { content: "Old locker number 4411", status: "deleted", deletedAt: Date.now() - 40 * DAY },
  ]);
  return m;
}

async function pastExpiry(owner: ReturnType<typeof ownerOf>) {
  const [m] = await insertMemories(owner, [
    { content: "Parking permit valid this week", expiresAt: Date.now() - 1000, updatedAt: Date.now() - 5000 },
  ]);
  return m;
}

describe("purge vs restore", () => {
  it("restore then purge (one queue): the restored memory stays", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await oldTombstone(owner);
    const stub = stubOf(owner);
    const [restored, purged] = await Promise.all([
      stub.restore(owner, m.id),
      stub.maintain(owner, { now: Date.now(), jobs: ["purge"], budget, policy }),
    ]);
    expect(restored.ok).toBe(true);
    expect(purged.ok).toBe(true);
    expect((await rowOf(m.id))?.status).toBe("active");
  });

  it("purge then restore (one queue): the restore finds nothing", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await oldTombstone(owner);
    const stub = stubOf(owner);
    const [purged, restored] = await Promise.all([
      stub.maintain(owner, { now: Date.now(), jobs: ["purge"], budget, policy }),
      stub.restore(owner, m.id),
    ]);
    expect(purged.ok).toBe(true);
    expect(restored.ok).toBe(false);
    expect(await rowOf(m.id)).toBeNull();
  });

  it("a purge holding a stale selection leaves a memory restored in between, with its history", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await oldTombstone(owner);
    const repo = new D1MemoryRepo(env.DB);
    const cutoff = Date.now() - 30 * DAY;
    const selected = await repo.listTombstones(owner, cutoff, 10);
    expect(selected.map((r) => r.id)).toEqual([m.id]);
    expect((await stubOf(owner).restore(owner, m.id)).ok).toBe(true);
    await repo.purge(owner, [m.id], "cron", Date.now(), cutoff);
    expect((await rowOf(m.id))?.status).toBe("active");
    const events = await eventsOf(m.id);
    expect(events.map((e) => e.op)).not.toContain("purge");
    expect(events.find((e) => e.op === "create")?.after).not.toBeNull();
  });

  it("without a restore the same purge removes the tombstone", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await oldTombstone(owner);
    await new D1MemoryRepo(env.DB).purge(owner, [m.id], "cron", Date.now(), Date.now() - 30 * DAY);
    expect(await rowOf(m.id)).toBeNull();
    expect((await eventsOf(m.id)).map((e) => e.op)).toContain("purge");
  });
});

describe("expiry vs update of expires_at", () => {
  it("update then expire (one queue): the new expires_at wins", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await pastExpiry(owner);
    const stub = stubOf(owner);
    const later = new Date(Date.now() + 30 * DAY).toISOString();
    const [updated, expired] = await Promise.all([
      stub.update(owner, { id: m.id, expires_at: later }),
      stub.maintain(owner, { now: Date.now(), jobs: ["expire"], budget, policy }),
    ]);
    expect(updated.ok).toBe(true);
    expect(expired.ok).toBe(true);
    expect((await rowOf(m.id))?.status).toBe("active");
  });

  it("expire then update (one queue): the update is refused, the memory is expired", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await pastExpiry(owner);
    const stub = stubOf(owner);
    const later = new Date(Date.now() + 30 * DAY).toISOString();
    const [expired, updated] = await Promise.all([
      stub.maintain(owner, { now: Date.now(), jobs: ["expire"], budget, policy }),
      stub.update(owner, { id: m.id, expires_at: later }),
    ]);
    expect(expired.ok).toBe(true);
    expect(updated.ok).toBe(false);
    expect((await rowOf(m.id))?.status).toBe("expired");
  });

  it("an expiry holding a stale selection does not overwrite an expires_at changed in between", async () => {
    const owner = ownerOf(uniqueUser());
    const m = await pastExpiry(owner);
    const repo = new D1MemoryRepo(env.DB);
    const [selected] = await repo.listExpiring(owner, Date.now(), 10);
    const later = new Date(Date.now() + 30 * DAY).toISOString();
    expect((await stubOf(owner).update(owner, { id: m.id, expires_at: later })).ok).toBe(true);
    await repo.write(owner, [], [expirePatch(selected, "expires_at reached", "cron", Date.now())]);
    const row = await rowOf(m.id);
    expect(row?.status).toBe("active");
    expect(row?.expires_at).toBe(Date.parse(later));
    expect((await eventsOf(m.id)).map((e) => e.op)).not.toContain("expire");
  });
});
