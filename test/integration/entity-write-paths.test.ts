/**
 * Entities kept in step with every write path, through the user's real Durable Object and D1: a
 * save, a supersede, an edit, delete and restore, the purge job, a bulk import, and the Cron job that
 * extracts memories stored before entities existed, in bounded batches.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { RulesLlm } from "../../src/providers/rules-llm";
import { D1EntityStore } from "../../src/storage/entities/d1-entity-store";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { DAY, insertMemories, ok, ownerOf, rowOf, runCron, stubOf } from "../helpers/lifecycle";
import { testService } from "../helpers/test-service";

const store = new D1EntityStore(env.DB);

async function named(owner: Scope, key: string): Promise<string[]> {
  return (await store.memoriesNaming(owner, [key], 50)).map((h) => h.memoryId).sort();
}

async function entityNames(owner: Scope): Promise<string[]> {
  const r = await env.DB.prepare(
    "SELECT name FROM entities WHERE account_id = ? AND namespace = ? AND user_id = ? ORDER BY name",
  )
    .bind(owner.accountId, owner.namespace, owner.userId)
    .all<{ name: string }>();
  return r.results.map((x) => x.name);
}

describe("entities on the write paths", () => {
  it("a save stores what it names; describe and list read it through the Durable Object", async () => {
    const owner = ownerOf(uniqueUser("ent-save"));
    const stub = stubOf(owner);
    const saved = await ok(stub.save(owner, { content: "My sister Ana lives in Bergen" }));
    expect(await named(owner, "sister")).toEqual([saved.id]);
    expect((await rowOf(saved.id!))?.entities_at).not.toBeNull();
    const ana = await ok(stub.describeEntity(owner, "my sister"));
    expect(ana).toMatchObject({ name: "Ana", kind: "person", aliases: ["my sister"], memoryIds: [saved.id] });
    expect(ana?.relations.map((r) => `${r.subjectName} ${r.predicate} ${r.objectName}`).sort()).toEqual([
      "Ana lives_in Bergen",
      "Ana sister_of user",
    ]);
    const page = await ok(stub.listEntities(owner, { limit: 10 }));
    expect(page.entities.map((e) => e.name).sort()).toEqual(["Ana", "Bergen"]);
    expect(await ok(stub.describeEntity(owner, "nobody"))).toBeNull();
    const refused = await stub.listEntities(owner, { limit: 0 });
    expect(refused.ok).toBe(false);
  });

  it("an edit replaces what the memory names; delete hides it, restore brings it back", async () => {
    const owner = ownerOf(uniqueUser("ent-edit"));
    const stub = stubOf(owner);
    const saved = await ok(stub.save(owner, { content: "My dog Rex loves the beach" }));
    await ok(stub.update(owner, { id: saved.id!, content: "My cat Mochi sleeps all day" }));
    expect(await named(owner, "rex")).toEqual([]);
    expect(await named(owner, "mochi")).toEqual([saved.id]);
    expect(await entityNames(owner)).toEqual(["Mochi"]);
    await ok(stub.delete(owner, { id: saved.id! }));
    expect(await named(owner, "mochi")).toEqual([]);
    expect((await ok(stub.listEntities(owner, { limit: 10 }))).entities).toEqual([]);
    await ok(stub.restore(owner, saved.id!));
    expect(await named(owner, "mochi")).toEqual([saved.id]);
  });

  it("a superseded memory's mentions leave with it", async () => {
    const owner = ownerOf(uniqueUser("ent-supersede"));
    const svc = testService({
      index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
      llm: Object.assign(new RulesLlm(), {
        decideConflict: async () => ({ supersedes: [1], duplicateOf: null, reason: "moved" }),
      }),
    });
    const old = await svc.save(owner, { content: "I live in Lisbon with my partner Sam" });
    const newer = await svc.save(owner, { content: "I live in Porto now, with my partner Sam" });
    expect(newer.status).toBe("superseded");
    expect(newer.supersededIds).toEqual([old.id]);
    expect(await named(owner, "lisbon")).toEqual([]);
    expect(await named(owner, "sam")).toEqual([newer.id]);
    expect(await named(owner, "porto")).toEqual([newer.id]);
  });

  it("the purge job removes what purged memories named, and names no memory holds", async () => {
    const owner = ownerOf(uniqueUser("ent-purge"));
    const stub = stubOf(owner);
    const gone = await ok(stub.save(owner, { content: "My cousin Ingrid works at Equinor Group" }));
    const kept = await ok(stub.save(owner, { content: "Ingrid visited the harbour last week" }));
    await ok(stub.delete(owner, { id: gone.id! }));
    await runCron({ vars: { SOFT_DELETE_RETENTION_DAYS: "0" }, scheduledTime: Date.now() + DAY });
    expect(await rowOf(gone.id!)).toBeNull();
    expect(await entityNames(owner)).toEqual(["Ingrid"]);
    expect(await named(owner, "ingrid")).toEqual([kept.id]);
    // Equinor Group, named only by the purged memory, is gone; Ingrid's aliases stay with Ingrid.
    expect(await named(owner, "equinor group")).toEqual([]);
  });

  it("a bulk import stores what its memories name", async () => {
    const owner = ownerOf(uniqueUser("ent-import"));
    const lines = ["Marta lives in Bergen", "我表哥李明在北京工作", "Nothing named here"].map((content, i) => ({
      line: i + 1,
      input: { content, category: "fact", priority: 3, confidence: 1, memory_type: "semantic" as const, tags: [] },
    }));
    const result = await ok(stubOf(owner).import(owner, lines as never));
    expect(result.imported).toBe(3);
    expect((await named(owner, "bergen")).length).toBe(1);
    expect((await named(owner, "表哥")).length).toBe(1);
    const marked = await env.DB.prepare(
      "SELECT count(*) AS n FROM memories WHERE account_id = ? AND namespace = ? AND user_id = ? AND entities_at IS NOT NULL",
    )
      .bind(owner.accountId, owner.namespace, owner.userId)
      .first<{ n: number }>();
    expect(marked?.n).toBe(3);
  });

  it("the Cron job extracts memories stored before entities existed, in bounded batches", async () => {
    const owner = ownerOf(uniqueUser("ent-cron"));
    const rows = await insertMemories(
      owner,
      Array.from({ length: 130 }, (_, i) => ({
        // 130 distinct names without digits (a word with a digit is a code, never a name).
        content: `My friend Person${String.fromCharCode(65 + (i % 26))}x${String.fromCharCode(97 + Math.floor(i / 26))} came over`,
      })),
    );
    expect(rows.every((m) => m.entitiesAt === null)).toBe(true);
    await runCron({ vars: { LIFECYCLE_BATCH_SIZE: "50" } });
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM memories WHERE account_id = ? AND namespace = ? AND user_id = ? AND entities_at IS NULL",
    )
      .bind(owner.accountId, owner.namespace, owner.userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    expect((await named(owner, "friend")).length).toBe(50);
    expect((await ok(stubOf(owner).listEntities(owner, { limit: 200 }))).entities.length).toBe(130);
  });
});
