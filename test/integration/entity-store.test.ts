/**
 * The D1 entity store inside workerd: what memories name, listed and described by name or alias,
 * recall's two lookups, purge leaving no name behind, a graph imported as given, and owners whose
 * addresses collide in every way kept apart.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { entityKey } from "../../src/memory/entities/entity-keys";
import type { EntityKind, MemoryEntities } from "../../src/memory/entities/entity-types";
import type { Owner } from "../../src/memory/types";
import { D1EntityStore } from "../../src/storage/entities/d1-entity-store";
import { uniqueUser } from "../helpers/api-keys";
import { insertMemories } from "../helpers/lifecycle";
import { collidingOwners, oddOwners, ownerOf } from "../helpers/odd-owners";

const store = new D1EntityStore(env.DB);

/** Stores `texts` as the owner's memories as given, returning their ids in order. */
async function memoriesOf(owner: Owner, texts: string[]): Promise<string[]> {
  const rows = await insertMemories(
    { ...owner, actor: "test" },
    texts.map((content) => ({ content })),
  );
  return rows.map((m) => m.id);
}

const ana = (memoryId: string): MemoryEntities => ({
  memoryId,
  entities: [{ name: "Ana", kind: "person", aliases: ["my sister"] }],
  relations: [{ subject: "Ana", predicate: "sister_of", object: "user" }],
});

describe("D1 entity store", () => {
  it("lists and describes entities by name or alias, counting active memories", async () => {
    const owner = ownerOf(uniqueUser("ent"));
    const [m1, m2] = await memoriesOf(owner, ["My sister Ana lives in Bergen", "Ana works as a marine biologist"]);
    await store.replaceMentions(
      owner,
      [
        {
          memoryId: m1,
          entities: [
            { name: "Ana", kind: "person", aliases: ["my sister", "sister"] },
            { name: "Bergen", kind: "place", aliases: [] },
          ],
          relations: [
            { subject: "Ana", predicate: "sister_of", object: "user" },
            { subject: "Ana", predicate: "lives_in", object: "Bergen" },
          ],
        },
        { memoryId: m2, entities: [{ name: "Ana", kind: "person", aliases: [] }], relations: [] },
      ],
      1000,
    );
    const page = await store.list(owner, { limit: 10 });
    expect(page.entities.map((e) => [e.name, e.kind, e.memoryCount])).toEqual([
      ["Ana", "person", 2],
      ["Bergen", "place", 1],
    ]);
    // "sister" is the lookup key of "my sister": one alias, as first written.
    expect(page.entities[0].aliases).toEqual(["my sister"]);
    const detail = await store.describe(owner, entityKey("My Sister"));
    expect(detail?.name).toBe("Ana");
    expect(detail?.memoryIds.sort()).toEqual([m1, m2].sort());
    expect(detail?.relations.map((r) => `${r.subjectName} ${r.predicate} ${r.objectName}`).sort()).toEqual([
      "Ana lives_in Bergen",
      "Ana sister_of user",
    ]);
    expect((await store.memoriesNaming(owner, ["sister"], 10)).map((h) => h.memoryId).sort()).toEqual([m1, m2].sort());
    expect((await store.sharedEntityMemories(owner, [m2], 10)).map((h) => h.memoryId)).toEqual([m1]);
    const first = await store.list(owner, { limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const second = await store.list(owner, { limit: 1, cursor: first.nextCursor });
    expect(second.entities.map((e) => e.name)).toEqual(["Bergen"]);
    expect(second.nextCursor).toBeNull();
  });

  it("keeps every mention's names and the strongest kind when one batch names an entity twice", async () => {
    const owner = ownerOf(uniqueUser("ent-batch"));
    const [m1, m2, m3] = await memoriesOf(owner, ["Ana called", "My sister Ana lives in Bergen", "I met Ana in Oslo"]);
    // As a backfill or an import sends them: the first mention has no cue, the second a relation word,
    // the third a weaker cue for another kind.
    await store.replaceMentions(
      owner,
      [
        { memoryId: m1, entities: [{ name: "Ana", kind: "other", aliases: [], cue: 0 }], relations: [] },
        { memoryId: m2, entities: [{ name: "Ana", kind: "person", aliases: ["my sister"], cue: 3 }], relations: [] },
        { memoryId: m3, entities: [{ name: "Ana", kind: "place", aliases: ["Anna"], cue: 1 }], relations: [] },
      ],
      1000,
    );
    const page = await store.list(owner, { limit: 10 });
    expect(page.entities.map((e) => [e.name, e.kind, e.memoryCount])).toEqual([["Ana", "person", 3]]);
    expect(page.entities[0].aliases.sort()).toEqual(["Anna", "my sister"]);
    expect((await store.describe(owner, entityKey("sister")))?.name).toBe("Ana");
    expect((await store.memoriesNaming(owner, ["anna"], 10)).map((h) => h.memoryId).sort()).toEqual(
      [m1, m2, m3].sort(),
    );
  });

  it("replaces a stored kind only with a stronger cue, across writes", async () => {
    const owner = ownerOf(uniqueUser("ent-cue"));
    const ids = await memoriesOf(owner, ["I met Ana in Oslo", "My sister Ana", "went to Ana", "Ana", "graph"]);
    const write = (memoryId: string, kind: EntityKind, cue?: number) =>
      store.replaceMentions(
        owner,
        [{ memoryId, entities: [{ name: "Ana", kind, aliases: [], cue }], relations: [] }],
        1000,
      );
    const kindNow = async () => (await store.list(owner, { limit: 10 })).entities[0].kind;
    await write(ids[0], "place", 1);
    expect(await kindNow()).toBe("place");
    await write(ids[1], "person", 3); // a relation word beats a bare preposition written earlier
    expect(await kindNow()).toBe("person");
    await write(ids[2], "place", 2); // a weaker cue later changes nothing
    expect(await kindNow()).toBe("person");
    await write(ids[3], "other", 0);
    expect(await kindNow()).toBe("person");
    // A kind the source gives (an imported graph: no cue) is the strongest.
    await store.storeGraph(
      owner,
      { entities: [{ name: "Ana", kind: "organization", aliases: [] }], relations: [], mentions: [] },
      2000,
    );
    expect(await kindNow()).toBe("organization");
  });

  it("keeps the kinds stored before cues as if given (migration 0015)", async () => {
    const owner = ownerOf(uniqueUser("ent-cue-old"));
    const [m1, m2] = await memoriesOf(owner, ["Bergen", "My sister Bergen"]);
    await store.replaceMentions(
      owner,
      [
        { memoryId: m1, entities: [{ name: "Bergen", kind: "place", aliases: [], cue: 1 }], relations: [] },
        { memoryId: m1, entities: [{ name: "Oslo", kind: "other", aliases: [], cue: 0 }], relations: [] },
      ],
      1000,
    );
    // As a row written before the column existed: the column's default.
    await env.DB.prepare("UPDATE entities SET kind_cue = 0 WHERE user_id = ?").bind(owner.userId).run();
    const migration = env.TEST_MIGRATIONS!.find((m) => m.name.startsWith("0015_"));
    const update = migration?.queries.find((q) => q.includes("UPDATE `entities`"));
    expect(update).toBeDefined();
    await env.DB.prepare(update!).run();
    await store.replaceMentions(
      owner,
      [{ memoryId: m2, entities: [{ name: "Bergen", kind: "person", aliases: [], cue: 3 }], relations: [] }],
      2000,
    );
    const kinds = (await store.list(owner, { limit: 10 })).entities.map((e) => [e.name, e.kind]);
    expect(kinds).toEqual([
      ["Bergen", "place"],
      ["Oslo", "other"],
    ]);
    const oslo = await env.DB.prepare("SELECT kind_cue FROM entities WHERE user_id = ? AND name = 'Oslo'")
      .bind(owner.userId)
      .first<{ kind_cue: number }>();
    expect(oslo?.kind_cue).toBe(0);
  });

  it("replaces what a memory named and marks it extracted", async () => {
    const owner = ownerOf(uniqueUser("ent-replace"));
    const [m1] = await memoriesOf(owner, ["Ana lives in Bergen"]);
    await store.replaceMentions(owner, [ana(m1)], 1000);
    await store.replaceMentions(
      owner,
      [{ memoryId: m1, entities: [{ name: "Oslo", kind: "place", aliases: [] }], relations: [] }],
      2000,
    );
    expect(await store.memoriesNaming(owner, ["ana"], 10)).toEqual([]);
    expect((await store.memoriesNaming(owner, ["oslo"], 10)).map((h) => h.memoryId)).toEqual([m1]);
    const row = await env.DB.prepare("SELECT entities_at FROM memories WHERE id = ?")
      .bind(m1)
      .first<{ entities_at: number }>();
    expect(row?.entities_at).toBe(2000);
  });

  it("drops a deleted memory's mentions from reads and purges names no memory holds", async () => {
    const owner = ownerOf(uniqueUser("ent-purge"));
    const [m1, m2] = await memoriesOf(owner, ["Ana lives in Bergen", "Ana likes tea"]);
    await store.replaceMentions(
      owner,
      [
        ana(m1),
        ana(m2),
        { memoryId: m2, entities: [{ name: "Tea House", kind: "organization", aliases: [] }], relations: [] },
      ],
      1,
    );
    await env.DB.prepare("UPDATE memories SET status = 'deleted' WHERE id = ?").bind(m2).run();
    expect((await store.memoriesNaming(owner, ["ana"], 10)).map((h) => h.memoryId)).toEqual([m1]);
    expect((await store.list(owner, { limit: 10 })).entities.map((e) => e.name)).toEqual(["Ana"]);
    // A purge: the row goes first (forgetMemories leaves a memory whose row is still there alone).
    await store.forgetMemories(owner, [m2]);
    expect((await store.list(owner, { limit: 10, cursor: null })).entities.length).toBe(1);
    await env.DB.prepare("DELETE FROM memories WHERE id = ?").bind(m2).run();
    await store.forgetMemories(owner, [m2]);
    const names = await env.DB.prepare(
      "SELECT name FROM entities WHERE account_id = ? AND namespace = ? AND user_id = ?",
    )
      .bind(owner.accountId, owner.namespace, owner.userId)
      .all<{ name: string }>();
    expect(names.results.map((r) => r.name)).toEqual(["Ana"]);
    await env.DB.prepare("DELETE FROM memories WHERE id = ?").bind(m1).run();
    await store.forgetMemories(owner, [m1]);
    const left = await env.DB.prepare(
      "SELECT count(*) AS n FROM entity_keys WHERE account_id = ? AND namespace = ? AND user_id = ?",
    )
      .bind(owner.accountId, owner.namespace, owner.userId)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it("stores an imported graph, mentions only of the owner's memories", async () => {
    const [owner, other] = collidingOwners("ent-graph");
    const [mine] = await memoriesOf(owner, ["Works at Acme"]);
    const [theirs] = await memoriesOf(other, ["Something else"]);
    await store.storeGraph(
      owner,
      {
        entities: [
          { name: "Acme Corp", kind: "organization", aliases: [] },
          { name: "Bob", kind: "person", aliases: [] },
        ],
        relations: [{ subject: "user", predicate: "works_at", object: "Acme Corp" }],
        mentions: [
          { entity: "Acme Corp", memoryId: mine },
          { entity: "Bob", memoryId: theirs },
        ],
      },
      5,
    );
    const page = await store.list(owner, { limit: 10 });
    expect(page.entities.map((e) => [e.name, e.memoryCount])).toEqual([["Acme Corp", 1]]);
    expect((await store.describe(owner, "acme corp"))?.relations.map((r) => r.subjectName)).toEqual(["user"]);
    expect((await store.list(other, { limit: 10 })).entities).toEqual([]);
  });

  it("keeps owners whose addresses collide apart", async () => {
    const owners = [...oddOwners("ent-odd"), ...collidingOwners("ent-coll")];
    const ids: string[] = [];
    for (const owner of owners) {
      const [id] = await memoriesOf(owner, ["Ana lives in Bergen"]);
      ids.push(id);
      await store.replaceMentions(owner, [ana(id)], 1);
    }
    for (const [i, owner] of owners.entries()) {
      expect((await store.memoriesNaming(owner, ["ana"], 50)).map((h) => h.memoryId)).toEqual([ids[i]]);
      expect((await store.list(owner, { limit: 50 })).entities.map((e) => e.memoryCount)).toEqual([1]);
      expect((await store.describe(owner, "sister"))?.memoryIds).toEqual([ids[i]]);
      expect(await store.sharedEntityMemories(owner, [ids[i]], 50)).toEqual([]);
    }
    await env.DB.prepare("DELETE FROM memories WHERE id = ?").bind(ids[0]).run();
    await store.forgetMemories(owners[0], [ids[0]]);
    expect((await store.describe(owners[1], "ana"))?.memoryIds).toEqual([ids[1]]);
  });
});
