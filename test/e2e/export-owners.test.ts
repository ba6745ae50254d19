/**
 * GET /v1/export from the attacker's side: a person `alice`, app `bot-a`'s end user `alice`, app
 * `bot-b`'s end user `alice` and `alice` in another account each export, and each file holds that
 * owner's memories and history only; memory_stats counts each one's own memory only.
 */
import { exports } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

async function exported(key: string, query = ""): Promise<string> {
  const request = new Request(`http://localhost/v1/export${query}`);
  request.headers.set("host", "localhost");
  request.headers.set("authorization", `Bearer ${key}`);
  const res = await exports.default.fetch(request);
  expect(res.status).toBe(200);
  return new TextDecoder().decode(await res.arrayBuffer());
}

describe("export and stats across colliding owners", () => {
  it("a person, two apps' end users and another account's user with one user id each export only their own", async () => {
    const account = uniqueUser("acct");
    const alice = uniqueUser("alice");
    const person = await createKey({ user: alice, account });
    const botA = await createKey({ app: "bot-a", account });
    const botB = await createKey({ app: "bot-b", account });
    const elsewhere = await createKey({ user: alice, account: uniqueUser("acct") });
    const owners = [
      { name: "person", key: person.key, query: "", args: {} },
      { name: "bot-a", key: botA.key, query: `?user_id=${alice}`, args: { user_id: alice } },
      { name: "bot-b", key: botB.key, query: `?user_id=${alice}`, args: { user_id: alice } },
      { name: "other account", key: elsewhere.key, query: "", args: {} },
    ];
    const markers = owners.map(() => `zq${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`);
    const ids: string[] = [];
    const clients: Client[] = [];
    for (const [i, o] of owners.entries()) {
      const client = await connect(o.key);
      clients.push(client);
      const saved = await callTool(client, "save_memory", { content: `Keeps the marker ${markers[i]}`, ...o.args });
      expect(saved.isError, textOf(saved)).toBeFalsy();
      const id = saved.structuredContent?.id as string;
      ids.push(id);
      const edited = await callTool(client, "update_memory", {
        id,
        content: `Keeps the marker ${markers[i]} in a drawer`,
        ...o.args,
      });
      expect(edited.isError, textOf(edited)).toBeFalsy();
    }
    for (const [i, o] of owners.entries()) {
      const text = await exported(o.key, o.query);
      const lines = text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type?: string; id?: string; history?: unknown[] });
      const memories = lines.filter((l) => l.type === "memory");
      expect(
        memories.map((m) => m.id),
        o.name,
      ).toEqual([ids[i]]);
      expect(memories[0].history?.length, o.name).toBeGreaterThanOrEqual(2);
      expect(lines.at(-1), o.name).toMatchObject({ type: "end", memories: 1 });
      for (const [j, marker] of markers.entries()) expect(text.includes(marker), `${o.name} sees ${j}`).toBe(i === j);
      const stats = await callTool(clients[i], "memory_stats", o.args);
      expect(stats.isError, textOf(stats)).toBeFalsy();
      expect(stats.structuredContent, o.name).toMatchObject({ total: 1, by_status: { active: 1 } });
    }
  });

  it("each owner's export carries only the people and places its own memories name", async () => {
    const account = uniqueUser("acct");
    const alice = uniqueUser("alice");
    const owners = [
      { name: "person", key: (await createKey({ user: alice, account })).key, query: "", args: {} },
      {
        name: "bot-a",
        key: (await createKey({ app: "bot-a", account })).key,
        query: `?user_id=${alice}`,
        args: { user_id: alice },
      },
      {
        name: "bot-b",
        key: (await createKey({ app: "bot-b", account })).key,
        query: `?user_id=${alice}`,
        args: { user_id: alice },
      },
    ];
    // The same sister everywhere (an entity's id derives from its name, so the rows collide but for the owner),
    // and a friend of each owner's own.
    const friends = ["Bruno", "Carla", "Dario"];
    for (const [i, o] of owners.entries()) {
      const client = await connect(o.key);
      for (const content of ["My sister Ana lives in Porto", `My best friend ${friends[i]} lives in Lisbon`]) {
        const saved = await callTool(client, "save_memory", { content, ...o.args });
        expect(saved.isError, textOf(saved)).toBeFalsy();
      }
    }
    for (const [i, o] of owners.entries()) {
      const lines = (await exported(o.key, o.query))
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type?: string; name?: string; entities?: number });
      const names = lines.filter((l) => l.type === "entity").map((l) => l.name);
      expect(
        names.filter((n) => n === "Ana"),
        o.name,
      ).toEqual(["Ana"]);
      expect(names, o.name).toContain(friends[i]);
      for (const [j, friend] of friends.entries()) if (j !== i) expect(names, o.name).not.toContain(friend);
      expect(lines.at(-1)?.entities, o.name).toBe(names.length);
    }
  });
});
