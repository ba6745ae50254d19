/**
 * A quarantined memory stays out of every read channel even when the store's other guards fail:
 * here the memory keeps its vector (local index and fresh buffer) and its FTS row while its row says
 * quarantined, so the dense channel and BM25 both still propose it, and only the recall status
 * filter (memory/recall/recall-filters.ts) and the listings' status predicates keep it out.
 */
import { env } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const CONTENT = "Prefers the window seat on overnight sleeper trains";
const QUERY = "window seat overnight sleeper trains";

/** Every place an agent reads memories from without naming a status or an id. */
async function everyChannel(client: Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await callTool(client, name, args);
    expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
    return JSON.stringify(r.structuredContent) + textOf(r);
  };
  out["recall, first call (core profile)"] = await tool("recall_memory", { query: QUERY });
  out["recall, later call"] = await tool("recall_memory", { query: QUERY });
  out["recall with a limit"] = await tool("recall_memory", { query: QUERY, limit: 10 });
  out["recall with superseded"] = await tool("recall_memory", { query: QUERY, limit: 10, include_superseded: true });
  out["recall by category"] = await tool("recall_memory", { query: QUERY, limit: 10, category: "preference" });
  out.list_memories = await tool("list_memories", {});
  for (const uri of ["memory://preferences", "memory://recent"])
    out[uri] = JSON.stringify((await client.readResource({ uri })).contents);
  return out;
}

describe("quarantined memories", () => {
  it("stay hidden from recall, listings and resources while their vector and FTS row remain", async () => {
    const user = uniqueUser("quar");
    const { key } = await createKey({ user });
    const writer = await connect(key);
    const saved = await callTool(writer, "save_memory", { content: CONTENT, category: "preference", priority: 1 });
    expect(saved.structuredContent?.status).toBe("created");
    const id = saved.structuredContent?.id as string;
    await callTool(writer, "save_memory", { content: "Works as a structural engineer in Porto" });

    // Control: while active, every channel shows it (so each one below really could).
    for (const [channel, text] of Object.entries(await everyChannel(await connect(key))))
      expect(text.includes(id), `active, ${channel}`).toBe(true);

    const owner = { accountId: "default", namespace: "user", userId: user };
    await env.DB.prepare(
      "UPDATE memories SET status = 'quarantined' WHERE id = ? AND account_id = ? AND namespace = ? AND user_id = ?",
    )
      .bind(id, owner.accountId, owner.namespace, owner.userId)
      .run();
    const fts = await env.DB.prepare("SELECT count(*) AS n FROM memories_fts WHERE owner = ? AND memory_id = ?")
      .bind(ownerAddress(owner), id)
      .first<{ n: number }>();
    expect(fts?.n, "the FTS row is still there").toBe(1);
    const row = await env.DB.prepare("SELECT indexed_at FROM memories WHERE id = ?")
      .bind(id)
      .first<{ indexed_at: number }>();
    expect(row?.indexed_at, "the vector is still indexed").not.toBeNull();

    for (const client of [writer, await connect(key)])
      for (const [channel, text] of Object.entries(await everyChannel(client)))
        expect(text.includes(id) || text.includes("window seat"), `quarantined, ${channel}`).toBe(false);
    const listed = await callTool(writer, "list_memories", { status: "quarantined" });
    expect(JSON.stringify(listed.structuredContent)).toContain(id);
  });
});
