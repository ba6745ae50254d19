/**
 * POST /v1/import of the official MCP memory server's memory.jsonl lands a real graph: entities with
 * their kinds, relations between them, and each observation a memory linked to its entity, in the
 * owner's rows only; a file split over requests (as npm run import splits it) keeps its relations and
 * kinds; an entity with thousands of observations links every one in bounded writes.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { appNamespace } from "../../src/memory/owner-address";
import { createKey, uniqueUser } from "../helpers/api-keys";

async function post(key: string, lines: object[]): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await exports.default.fetch(
    new Request("http://localhost/v1/import", {
      method: "POST",
      headers: { host: "localhost", authorization: `Bearer ${key}` },
      body: lines.map((l) => JSON.stringify(l)).join("\n"),
    }),
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function entitiesOf(user: string): Promise<[string, string][]> {
  const { results } = await env.DB.prepare("SELECT name, kind FROM entities WHERE user_id = ? ORDER BY name")
    .bind(user)
    .all<{ name: string; kind: string }>();
  return results.map((r) => [r.name, r.kind]);
}

async function relationsOf(user: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT s.name AS s, r.predicate AS p, o.name AS o FROM entity_relations r
       JOIN entities s ON s.user_id = r.user_id AND s.id = r.subject_id
       JOIN entities o ON o.user_id = r.user_id AND o.id = r.object_id
     WHERE r.user_id = ? ORDER BY s.name, r.predicate`,
  )
    .bind(user)
    .all<{ s: string; p: string; o: string }>();
  return results.map((r) => `${r.s} ${r.p} ${r.o}`);
}

async function mentionedBy(user: string, entity: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT m.content FROM entity_mentions mn JOIN entities e ON e.user_id = mn.user_id AND e.id = mn.entity_id
       JOIN memories m ON m.id = mn.memory_id AND m.user_id = mn.user_id
     WHERE mn.user_id = ? AND e.name = ? ORDER BY m.content`,
  )
    .bind(user, entity)
    .all<{ content: string }>();
  return results.map((r) => r.content);
}

async function newUser(): Promise<{ user: string; key: string }> {
  const user = uniqueUser("graph");
  return { user, key: (await createKey({ user })).key };
}

const ENTITIES = [
  { type: "entity", name: "Alice", entityType: "person", observations: ["Speaks fluent Spanish"] },
  { type: "entity", name: "Acme Corp", entityType: "Company", observations: ["Makes anvils"] },
  { type: "entity", name: "Rex", entityType: "dog", observations: ["Chases the postman"] },
  { type: "entity", name: "Oslo", entityType: "city", observations: [] },
];
const RELATIONS = [
  { type: "relation", from: "Alice", to: "Acme Corp", relationType: "works_at" },
  { type: "relation", from: "Alice", to: "Rex", relationType: "owns.pet" },
  { type: "relation", from: "default_user", to: "Alice", relationType: "friend-of" },
];

describe("the MCP memory server's graph imports as entities and relations", () => {
  it("lands entities with kinds, relations by entity, and observations linked to their entity", async () => {
    const { user, key } = await newUser();
    const r = await post(key, [...ENTITIES, ...RELATIONS]);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ format: "mcp-memory", imported: 6, entities: { entities: 5, relations: 3 } });
    expect(await entitiesOf(user)).toEqual([
      ["Acme Corp", "organization"],
      ["Alice", "person"],
      ["Oslo", "place"],
      ["Rex", "pet"],
      ["default_user", "other"],
    ]);
    expect(await relationsOf(user)).toEqual([
      "Alice owns_pet Rex",
      "Alice works_at Acme Corp",
      "default_user friend_of Alice",
    ]);
    expect(await mentionedBy(user, "Alice")).toEqual([
      "Alice owns.pet Rex",
      "Alice works at Acme Corp",
      "Alice: Speaks fluent Spanish",
      "default_user friend of Alice",
    ]);
    expect(await mentionedBy(user, "Acme Corp")).toEqual(["Acme Corp: Makes anvils", "Alice works at Acme Corp"]);
    // Again: nothing new, nothing doubled.
    expect((await post(key, [...ENTITIES, ...RELATIONS])).json).toMatchObject({ imported: 0, skipped: 6 });
    expect(await relationsOf(user)).toHaveLength(3);
    expect(await mentionedBy(user, "Alice")).toHaveLength(4);
  });

  it("keeps relations and kinds when the file comes in two requests, entities first", async () => {
    const { user, key } = await newUser();
    expect((await post(key, ENTITIES)).status).toBe(200);
    expect((await post(key, RELATIONS)).status).toBe(200);
    expect(await entitiesOf(user)).toEqual([
      ["Acme Corp", "organization"],
      ["Alice", "person"],
      ["Oslo", "place"],
      ["Rex", "pet"],
      ["default_user", "other"],
    ]);
    expect(await relationsOf(user)).toHaveLength(3);
  });

  it("keeps a kind the file gives when the request that mentions it is imported again", async () => {
    const { user, key } = await newUser();
    // Oslo has no observations: its only mention is the memory of the relation in the second request.
    const lives = { type: "relation", from: "Alice", to: "Oslo", relationType: "lives_in" };
    expect((await post(key, ENTITIES)).status).toBe(200);
    expect((await post(key, [lives])).status).toBe(200);
    expect((await post(key, [lives])).json).toMatchObject({ imported: 0, skipped: 1 });
    expect(await entitiesOf(user)).toContainEqual(["Oslo", "place"]);
    expect(await relationsOf(user)).toEqual(["Alice lives_in Oslo"]);
    expect(await mentionedBy(user, "Oslo")).toEqual(["Alice lives in Oslo"]);
  });

  it("writes one owner's rows only: an app's end user with the same id as a person", async () => {
    const account = uniqueUser("acct");
    const id = uniqueUser("same");
    await createKey({ user: id, account }); // a person with the same id, in the same account
    const bot = await createKey({ app: "bot", account });
    const res = await exports.default.fetch(
      new Request(`http://localhost/v1/import?user_id=${id}`, {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${bot.key}` },
        body: [...ENTITIES, ...RELATIONS].map((l) => JSON.stringify(l)).join("\n"),
      }),
    );
    expect(res.status).toBe(200);
    const owners = async (table: string) =>
      (
        await env.DB.prepare(`SELECT DISTINCT account_id, namespace FROM ${table} WHERE user_id = ?`)
          .bind(id)
          .all<{ account_id: string; namespace: string }>()
      ).results;
    for (const table of ["entities", "entity_keys", "entity_mentions", "entity_relations"])
      expect(await owners(table), table).toEqual([{ account_id: account, namespace: appNamespace("bot") }]);
    // The person with that id holds no row of it.
    expect(await owners("memories")).toEqual([{ account_id: account, namespace: appNamespace("bot") }]);
  });

  it("links all 5,000 observations of one entity, in bounded writes", async () => {
    const { user, key } = await newUser();
    const observations = Array.from({ length: 5000 }, (_, i) => `Observation number ${i}`);
    const r = await post(key, [{ type: "entity", name: "Busy", entityType: "person", observations }]);
    expect(r.status, JSON.stringify(r.json).slice(0, 500)).toBe(200);
    expect(r.json).toMatchObject({ imported: 5000, entities: { entities: 1, relations: 0, mentions: 5000 } });
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM entity_mentions WHERE user_id = ?")
      .bind(user)
      .all<{ n: number }>();
    expect(results[0].n).toBe(5000);
  }, 120_000);

  it("refuses more entities and relations than one request stores, naming the limit", async () => {
    const { user, key } = await newUser();
    const many = Array.from({ length: 2001 }, (_, i) => ({ type: "entity", name: `E${i}`, observations: [] }));
    const r = await post(key, many);
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/more than 2000 entities and relations in one request \(2001\): split the file/);
    expect(await entitiesOf(user)).toEqual([]);
  });
});
