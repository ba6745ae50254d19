import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const tracked = trackedConnect();
const connect = (key: string, transport: "mcp" | "sse" = "mcp") => tracked(key, { transport });

type Listed = { memories: { id: string; content: string }[] };

async function expectInvisible(client: Client, id: string, query: string, extra: Record<string, unknown> = {}) {
  const recall = await callTool(client, "recall_memory", { query, limit: 10, ...extra });
  expect((recall.structuredContent as Listed).memories.map((m) => m.id)).not.toContain(id);
  const list = await callTool(client, "list_memories", { status: "all", limit: 100, ...extra });
  expect((list.structuredContent as Listed).memories.map((m) => m.id)).not.toContain(id);
  for (const tool of ["memory_history", "restore_memory", "update_memory"]) {
    const r = await callTool(client, tool, { id, ...(tool === "update_memory" ? { priority: 1 } : {}), ...extra });
    expect(r.isError, `${tool} must not reach another user's memory`).toBe(true);
    expect(textOf(r)).toMatch(/not found/);
  }
  const del = await callTool(client, "delete_memory", { id, ...extra });
  expect(del.structuredContent).toMatchObject({ deleted: [], not_found: [id] });
}

describe("tenant isolation", () => {
  it("a second user's key sees none of alice's memories, on either transport", async () => {
    const alice = await connect((await createKey({ user: uniqueUser("alice") })).key);
    const saved = await callTool(alice, "save_memory", { content: "Alice's bank is Northwind Credit Union" });
    const id = saved.structuredContent?.id as string;
    for (const transport of ["mcp", "sse"] as const) {
      const bob = await connect((await createKey({ user: uniqueUser("bob") })).key, transport);
      await expectInvisible(bob, id, "Northwind Credit Union bank");
    }
    const still = await callTool(alice, "recall_memory", { query: "Northwind Credit Union bank", limit: 5 });
    expect((still.structuredContent as Listed).memories.map((m) => m.id)).toEqual([id]);
  });

  it("two user keys of one user share that user's memories (multi-device)", async () => {
    const user = uniqueUser("multi");
    const laptop = await connect((await createKey({ user })).key);
    const phone = await connect((await createKey({ user })).key);
    const saved = await callTool(laptop, "save_memory", { content: "Allergic to peanuts" });
    const r = await callTool(phone, "recall_memory", { query: "peanuts allergy", limit: 5 });
    expect((r.structuredContent as Listed).memories.map((m) => m.id)).toEqual([saved.structuredContent?.id]);
  });

  it("an app key keeps its end users apart and must name user_id", async () => {
    const app = await connect((await createKey({ app: "n8n" })).key);
    const u1 = uniqueUser("end1");
    const u2 = uniqueUser("end2");
    const saved = await callTool(app, "save_memory", { content: "Works night shifts at the hospital", user_id: u1 });
    expect(saved.structuredContent?.status).toBe("created");
    const id = saved.structuredContent?.id as string;
    await expectInvisible(app, id, "night shifts hospital", { user_id: u2 });
    const own = await callTool(app, "recall_memory", { query: "night shifts hospital", limit: 5, user_id: u1 });
    expect((own.structuredContent as Listed).memories.map((m) => m.id)).toEqual([id]);
    const missing = await callTool(app, "recall_memory", { query: "anything", limit: 5 });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain("user_id: required with an app key");
  });

  it("a user key rejects a user_id argument", async () => {
    const user = uniqueUser("carol");
    const carol = await connect((await createKey({ user })).key);
    const r = await callTool(carol, "save_memory", { content: "Likes jazz", user_id: uniqueUser("other") });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("user_id: not allowed with a user key");
    const listed = await callTool(carol, "list_memories", {});
    expect((listed.structuredContent as Listed).memories).toEqual([]);
  });

  it("the same user id under two accounts are two different users", async () => {
    const user = uniqueUser("same");
    const a = await connect((await createKey({ user, account: "acct-a" })).key);
    const b = await connect((await createKey({ user, account: "acct-b" })).key);
    const saved = await callTool(a, "save_memory", { content: "Account A secret project is Falcon" });
    await expectInvisible(b, saved.structuredContent?.id as string, "secret project Falcon");
  });
});
