import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { UserMemory } from "../../src/durable/user-memory";
import { ownerAddress } from "../../src/memory/owner-address";
import { emptySnapshot } from "../../src/timing/request-timing";
import { uniqueUser } from "../helpers/api-keys";

function stubFor(accountId: string, userId: string) {
  return env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress({ accountId, namespace: "user", userId })));
}

describe("UserMemory Durable Object (real DO, real D1)", () => {
  it("serves typed RPC and persists rows in D1", async () => {
    const userId = uniqueUser();
    const scope = { accountId: "default", namespace: "user", userId, actor: "test" };
    const stub = stubFor("default", userId);
    const saved = await stub.save(scope, { content: "Runs a marathon every spring" });
    expect(saved.ok).toBe(true);
    const row = await env.DB.prepare("SELECT user_id, status FROM memories WHERE id = ?")
      .bind(saved.ok ? saved.value.id : "")
      .first();
    expect(row).toEqual({ user_id: userId, status: "active" });
    const fts = await env.DB.prepare("SELECT tokens FROM memories_fts WHERE memory_id = ?")
      .bind(saved.ok ? saved.value.id : "")
      .first<{ tokens: string }>();
    expect(fts?.tokens).toContain("marathon");
  });

  it("refuses a scope for another user than the one it was named for", async () => {
    const userId = uniqueUser();
    const stub = stubFor("default", userId);
    await stub.stats({ accountId: "default", namespace: "user", userId, actor: "test" });
    const other = await stub.stats({ accountId: "default", namespace: "user", userId: uniqueUser(), actor: "test" });
    expect(other).toEqual({
      ok: false,
      error: { code: "forbidden", message: "This memory store belongs to another user" },
      timing: emptySnapshot(),
    });
  });

  it("returns typed errors across the RPC boundary", async () => {
    const userId = uniqueUser();
    const stub = stubFor("default", userId);
    const r = await stub.restore(
      { accountId: "default", namespace: "user", userId, actor: "test" },
      "01JAAAAAAAAAAAAAAAAAAAAAAA",
    );
    expect(r).toEqual({
      ok: false,
      error: { code: "not_found", message: "Memory 01JAAAAAAAAAAAAAAAAAAAAAAA was not found" },
      // The object's own timings travel with every answer: the lookup was one D1 round trip.
      timing: expect.objectContaining({ d1Queries: 1, d1Sequential: 1 }),
    });
  });

  it("keeps its local vectors in DO SQLite", async () => {
    const userId = uniqueUser();
    const stub = stubFor("default", userId);
    const saved = await stub.save(
      { accountId: "default", namespace: "user", userId, actor: "test" },
      { content: "Grows tomatoes on the balcony" },
    );
    const count = await runInDurableObject(
      stub,
      async (_instance: UserMemory, state) =>
        state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM local_vectors").one().n,
    );
    expect(saved.ok).toBe(true);
    expect(count).toBe(1);
  });
});

describe("edits make a memory due for consolidation again", () => {
  it("update of content and restore clear consolidated_at", async () => {
    const userId = uniqueUser();
    const scope = { accountId: "default", namespace: "user", userId, actor: "test" };
    const stub = stubFor("default", userId);
    const saved = await stub.save(scope, { content: "Plays the cello in a quartet" });
    if (!saved.ok || !saved.value.id) throw new Error("save failed");
    const id = saved.value.id;
    const consolidatedAt = () =>
      env.DB.prepare("SELECT consolidated_at AS c FROM memories WHERE id = ?").bind(id).first<{ c: number | null }>();
    await env.DB.prepare("UPDATE memories SET consolidated_at = 1 WHERE id = ?").bind(id).run();
    await stub.update(scope, { id, content: "Plays the cello in a string quartet on Fridays" });
    expect((await consolidatedAt())?.c).toBeNull();
    await env.DB.prepare("UPDATE memories SET consolidated_at = 1 WHERE id = ?").bind(id).run();
    await stub.delete(scope, { id });
    await stub.restore(scope, id);
    expect((await consolidatedAt())?.c).toBeNull();
  });
});
