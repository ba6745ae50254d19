/**
 * A read-only OAuth grant (memory:read) against every tool that says it writes: the tools come from
 * the server's own tools/list (readOnlyHint not true), so a write tool added tomorrow is called here
 * the day it is registered (and this test fails until it is given arguments below). Each call is
 * refused with the read-only sentence, over /mcp and the legacy /sse, and the owner's rows in D1 are
 * byte-for-byte what they were; POST /v1/import with the grant's token is refused the same way,
 * and so is a read-write grant's token narrowed to memory:read by a refresh (the token's own scope).
 */
import { env } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";
import { connectWithOAuth, grantTokens, rawFetch, tokenRequest, uniqueIp } from "../helpers/oauth";

const connectMcp = trackedConnect();

interface Targets {
  active: string;
  deleted: string;
}

/** Arguments each write tool would accept, aimed at the owner's real memories. */
const WRITE_ARGS: Record<string, (t: Targets) => Record<string, unknown>> = {
  save_memory: () => ({ content: "A read-only grant tries to save this" }),
  update_memory: (t) => ({ id: t.active, content: "Changed by a read-only grant" }),
  delete_memory: (t) => ({ id: t.active }),
  restore_memory: (t) => ({ id: t.deleted }),
  forget_memories: () => ({ tags: ["ro-target"], dry_run: false }),
  summarize_conversation: () => ({ transcript: "User: I moved to Lisbon last week and adopted a cat named Miso." }),
  consolidate_memories: () => ({ all: true }),
  regenerate_embeddings: () => ({ all: true }),
};

/** Every row the owner has in D1: memories, their events and FTS rows. */
async function snapshot(userId: string): Promise<string> {
  const owner = { accountId: "default", namespace: "user", userId };
  const where = "account_id = ? AND namespace = ? AND user_id = ?";
  const binds = [owner.accountId, owner.namespace, owner.userId];
  const rows = await env.DB.batch([
    env.DB.prepare(`SELECT * FROM memories WHERE ${where} ORDER BY id`).bind(...binds),
    env.DB.prepare(`SELECT * FROM memory_events WHERE ${where} ORDER BY id`).bind(...binds),
    env.DB.prepare("SELECT memory_id, tokens, context FROM memories_fts WHERE owner = ? ORDER BY memory_id").bind(
      ownerAddress(owner),
    ),
  ]);
  return JSON.stringify(rows.map((r) => r.results));
}

async function seed(writer: Client): Promise<Targets> {
  const save = async (content: string, tags: string[] = []) => {
    const r = await callTool(writer, "save_memory", { content, tags });
    expect(r.isError, textOf(r)).toBeFalsy();
    return r.structuredContent?.id as string;
  };
  const active = await save("Keeps the bicycle in the basement", ["ro-target"]);
  await save("Keeps the bike in the basement storage room", ["ro-target"]);
  const deleted = await save("Used to own a sailing boat");
  expect((await callTool(writer, "delete_memory", { id: deleted })).isError).toBeFalsy();
  return { active, deleted };
}

describe("a read-only grant against every write tool", () => {
  for (const transport of ["mcp", "sse"] as const)
    it(`refuses each tool whose readOnlyHint is not true over /${transport}, and changes nothing`, async () => {
      const user = uniqueUser("ro");
      const { key } = await createKey({ user });
      const targets = await seed(await connectMcp(key));
      const { client, provider } = await connectWithOAuth(
        { credential: key, access: "read", ip: uniqueIp() },
        { transport },
      );
      connectMcp.track(client);
      expect(provider.saved?.scope).toBe("memory:read");

      const tools = (await client.listTools()).tools;
      const writers = tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
      expect(writers).toContain("save_memory");
      expect(writers).toContain("delete_memory");
      expect(
        writers.filter((name) => !(name in WRITE_ARGS)),
        "write tools without test arguments",
      ).toEqual([]);

      const before = await snapshot(user);
      for (const name of writers) {
        const refused = await callTool(client, name, WRITE_ARGS[name](targets));
        expect(refused.isError, `${name}: ${textOf(refused)}`).toBe(true);
        expect(textOf(refused), name).toMatch(/read-only \(memory:read\).*memory:write/);
      }
      expect(await snapshot(user)).toBe(before);
      // The same grant may still read: the refusals are the grant's, not a broken session.
      const listed = await callTool(client, "list_memories", { status: "all" });
      expect(listed.isError, textOf(listed)).toBeFalsy();
      expect((listed.structuredContent as { memories: unknown[] }).memories).toHaveLength(3);
    });

  it("refuses POST /v1/import with a read-only grant's token and writes nothing", async () => {
    const user = uniqueUser("ro-imp");
    const { key } = await createKey({ user });
    await seed(await connectMcp(key));
    const before = await snapshot(user);
    const grant = await grantTokens({ credential: key, access: "read", ip: uniqueIp() });
    expect(grant.scope).toBe("memory:read");
    const res = await rawFetch(
      "/v1/import",
      { method: "POST", body: `${JSON.stringify({ content: "Imported through a read-only grant" })}\n` },
      { authorization: `Bearer ${grant.access_token}` },
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/read-only \(memory:read\)/);
    expect(await snapshot(user)).toBe(before);
  });

  it("refuses writes with a read-write grant's token narrowed to memory:read by a refresh", async () => {
    const user = uniqueUser("ro-narrow");
    const { key } = await createKey({ user });
    await seed(await connectMcp(key));
    const before = await snapshot(user);
    const ip = uniqueIp();
    const grant = await grantTokens({ credential: key, ip });
    expect(grant.scope.split(" ").sort()).toEqual(["memory:read", "memory:write"]);
    const refreshed = await tokenRequest(
      {
        grant_type: "refresh_token",
        refresh_token: grant.refresh_token,
        client_id: grant.clientId,
        scope: "memory:read",
      },
      ip,
    );
    const narrowed = (await refreshed.json()) as { access_token: string; scope: string };
    expect(narrowed.scope).toBe("memory:read");
    const res = await rawFetch(
      "/v1/import",
      { method: "POST", body: `${JSON.stringify({ content: "Imported with a narrowed token" })}\n` },
      { authorization: `Bearer ${narrowed.access_token}` },
    );
    expect(res.status).toBe(403);
    expect(await snapshot(user)).toBe(before);
  });
});
