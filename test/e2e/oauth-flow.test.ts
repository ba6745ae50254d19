import { type Client, UnauthorizedError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, revokeKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";
import { connectWithOAuth, uniqueIp } from "../helpers/oauth";

const connectMcp = trackedConnect();
/** OAuth clients connect through their auth provider, then are closed after each test like the others. */
function track<T extends { client: Client }>(c: T): T {
  connectMcp.track(c.client);
  return c;
}

type Recall = { memories: { id: string; content: string }[] };

describe("an MCP client signs in with OAuth (its auth provider drives the authorization page)", () => {
  it("registers, signs in with a user key, gets tokens, then lists and calls tools as that user", async () => {
    const user = uniqueUser("oauth");
    const { key } = await createKey({ user });
    const { client, provider, callback } = track(await connectWithOAuth({ credential: key, ip: uniqueIp() }));
    expect(provider.client?.client_id).toBeTruthy();
    expect(callback.searchParams.get("iss")).toBe("http://localhost");
    expect(provider.saved?.access_token).toBeTruthy();
    expect(provider.saved?.refresh_token).toBeTruthy();
    expect(provider.saved?.scope?.split(" ").sort()).toEqual(["memory:read", "memory:write"]);

    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain("save_memory");
    const saved = await callTool(client, "save_memory", { content: "Signed in through OAuth and prefers green tea" });
    expect(saved.isError, textOf(saved)).toBeFalsy();

    // The same user's API key sees the memory: the grant acts as that user, nobody else.
    const viaKey = await connectMcp(key);
    const recalled = await callTool(viaKey, "recall_memory", { query: "green tea", limit: 5 });
    expect((recalled.structuredContent as Recall).memories.map((m) => m.content)).toContain(
      "Signed in through OAuth and prefers green tea",
    );
    const stranger = await connectMcp((await createKey({ user: uniqueUser("stranger") })).key);
    const none = await callTool(stranger, "recall_memory", { query: "green tea", limit: 5 });
    expect((none.structuredContent as Recall).memories).toEqual([]);
  });

  it("works over the legacy /sse transport too", async () => {
    const { key } = await createKey({ user: uniqueUser("oauth-sse") });
    const { client } = track(await connectWithOAuth({ credential: key, ip: uniqueIp() }, { transport: "sse" }));
    const saved = await callTool(client, "save_memory", { content: "Uses the SSE transport from an old client" });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    expect(saved.structuredContent?.status).toBe("created");
  });

  it("a read-only grant recalls but cannot save", async () => {
    const user = uniqueUser("reader");
    const { key } = await createKey({ user });
    const writer = await connectMcp(key);
    await callTool(writer, "save_memory", { content: "The office wifi password changes every month" });
    const { client, provider } = track(await connectWithOAuth({ credential: key, access: "read", ip: uniqueIp() }));
    expect(provider.saved?.scope).toBe("memory:read");
    const refused = await callTool(client, "save_memory", { content: "Should never be stored" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/read-only \(memory:read\).*memory:write/);
    const recalled = await callTool(client, "recall_memory", { query: "office wifi", limit: 5 });
    expect(recalled.isError, textOf(recalled)).toBeFalsy();
    expect((recalled.structuredContent as Recall).memories).toHaveLength(1);
    const all = await callTool(writer, "list_memories", {});
    expect(textOf(all)).not.toContain("Should never be stored");
  });

  it("a revoked key's grants stop working", async () => {
    const { key, id } = await createKey({ user: uniqueUser("revoked") });
    const { client, provider } = track(await connectWithOAuth({ credential: key, ip: uniqueIp() }));
    expect((await callTool(client, "memory_stats", {})).isError).toBeFalsy();
    await revokeKey(id);
    // 401 → the client tries its refresh token → invalid_grant → it must send the person to sign in again.
    provider.authorizationUrl = undefined;
    await expect(callTool(client, "memory_stats", {})).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeInstanceOf(URL);
  });

  it("API-key clients are unaffected while OAuth is on", async () => {
    const { key } = await createKey({ user: uniqueUser("keyed") });
    const client = await connectMcp(key);
    const saved = await callTool(client, "save_memory", { content: "Still connects with a plain API key" });
    expect(saved.structuredContent?.status).toBe("created");
    const sse = await connectMcp(key, { transport: "sse" });
    expect((await sse.listTools()).tools.length).toBeGreaterThan(0);
  });
});
