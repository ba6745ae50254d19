import { exports } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { fireCron, insertMemories, ownerOf, runCron } from "../helpers/lifecycle";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
async function connectAs(user: string, transport: "mcp" | "sse" = "mcp") {
  const { key } = await createKey({ user });
  return connect(key, { transport });
}

type View = { id: string; content: string; status: string; superseded_by: string | null };
const memoriesOf = (r: { structuredContent?: Record<string, unknown> }) =>
  (r.structuredContent as { memories: View[] }).memories;

async function list(client: Client, status: string) {
  const r = await callTool(client, "list_memories", { status, limit: 100 });
  expect(r.isError, textOf(r)).toBeFalsy();
  return memoriesOf(r);
}

async function health() {
  const res = await exports.default.fetch(new Request("http://localhost/health", { headers: { host: "localhost" } }));
  return (await res.json()) as { index_sync: { unindexed: number; other_model: number; in_sync: boolean } };
}

describe("lifecycle over a real MCP client", () => {
  it("a memory saved with ttl_days 0 or a past expires_at is gone from recall after one scheduled run and listed as expired", async () => {
    const client = await connectAs(uniqueUser());
    const ttl = await callTool(client, "save_memory", { content: "Gate 42 for today's flight to Oslo", ttl_days: 0 });
    const past = await callTool(client, "save_memory", {
      content: "Flight to Oslo boards at noon",
      expires_at: "2020-01-01T00:00:00Z",
    });
    const kept = await callTool(client, "save_memory", { content: "Frequent flyer with Norwegian to Oslo" });
    for (const r of [ttl, past, kept]) expect(r.structuredContent?.status, textOf(r)).toBe("created");

    await fireCron(Date.now() + 1000);

    const recall = await callTool(client, "recall_memory", { query: "flight to Oslo", limit: 10 });
    expect(memoriesOf(recall).map((m) => m.id)).toEqual([kept.structuredContent!.id]);
    const expired = await list(client, "expired");
    expect(expired.map((m) => m.id).sort()).toEqual([ttl.structuredContent!.id, past.structuredContent!.id].sort());
    expect(expired.every((m) => m.status === "expired")).toBe(true);
  });

  it("with retention 0, a deleted memory is purged: not listed in any status, its history gone", async () => {
    const client = await connectAs(uniqueUser());
    const saved = await callTool(client, "save_memory", { content: "Old address was Rua Augusta 12" });
    const id = saved.structuredContent!.id as string;
    await callTool(client, "delete_memory", { id });
    expect((await list(client, "deleted")).map((m) => m.id)).toEqual([id]);

    await runCron({ vars: { SOFT_DELETE_RETENTION_DAYS: "0" } });

    expect(await list(client, "all")).toEqual([]);
    const history = await callTool(client, "memory_history", { id });
    expect(history.isError).toBe(true);
    expect(textOf(history)).toContain("not found");
    const restore = await callTool(client, "restore_memory", { id });
    expect(restore.isError).toBe(true);
  });

  it("duplicates saved through the import path are consolidated by the cron, and memory_stats shows the index in sync", async () => {
    const user = uniqueUser();
    const client = await connectAs(user);
    const t0 = Date.now() - 10_000;
    const rows = await insertMemories(ownerOf(user), [
      { content: "I like Python", createdAt: t0 },
      { content: "I like python!", createdAt: t0 + 1 },
      { content: "I really like Python", createdAt: t0 + 2 },
      { content: "I like Python a lot", createdAt: t0 + 3 },
      { content: "I love Python", createdAt: t0 + 4 },
    ]);
    const before = await callTool(client, "memory_stats", {});
    expect((before.structuredContent as { index: { in_sync: boolean; unindexed: number } }).index).toMatchObject({
      in_sync: false,
      unindexed: 5,
    });

    await runCron();

    const active = await list(client, "active");
    expect(active.map((m) => m.content)).toEqual(["I like Python a lot"]);
    const superseded = await list(client, "superseded");
    expect(superseded.map((m) => m.id).sort()).toEqual(
      rows
        .filter((r) => r.content !== "I like Python a lot")
        .map((r) => r.id)
        .sort(),
    );
    expect(superseded.every((m) => m.superseded_by === active[0].id)).toBe(true);
    const stats = await callTool(client, "memory_stats", {});
    expect((stats.structuredContent as { index: Record<string, unknown> }).index).toMatchObject({
      in_sync: true,
      unindexed: 0,
      other_model: 0,
      indexed: 1,
    });
    const recall = await callTool(client, "recall_memory", { query: "python", limit: 10 });
    expect(memoriesOf(recall).map((m) => m.id)).toEqual([active[0].id]);
  });

  it("consolidate_memories runs the same consolidation on demand, over /mcp and /sse", async () => {
    const user = uniqueUser();
    const client = await connectAs(user, "sse");
    await insertMemories(ownerOf(user), [
      { content: "Drinks oat milk in coffee", createdAt: Date.now() - 3000 },
      { content: "drinks oat milk in coffee.", createdAt: Date.now() - 2000 },
      { content: "Allergic to cats", createdAt: Date.now() - 1000 },
    ]);
    const r = await callTool(client, "consolidate_memories", {});
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ merged: 1, complete: true });
    expect(textOf(r)).toContain("Consolidated 1 near-duplicate memory into 1");
    const again = await callTool(client, "consolidate_memories", { all: true });
    expect(again.structuredContent).toMatchObject({ merged: 0, examined: 2, complete: true });
  });

  it("regenerate_embeddings repairs the index on demand; all=true re-embeds everything; /health reports sync", async () => {
    const user = uniqueUser();
    const client = await connectAs(user);
    await runCron(); // settle earlier tests' work so /health reflects this test
    await insertMemories(ownerOf(user), [{ content: "Runs 10k every Sunday" }, { content: "Reads sci-fi before bed" }]);
    expect((await health()).index_sync).toMatchObject({ unindexed: 2, in_sync: false });

    const r = await callTool(client, "regenerate_embeddings", {});
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      reembedded: 2,
      complete: true,
      index: { in_sync: true, unindexed: 0, embedding_model: "local-hash-v1" },
    });
    expect((await health()).index_sync).toMatchObject({ unindexed: 0, other_model: 0, in_sync: true });

    const all = await callTool(client, "regenerate_embeddings", { all: true });
    expect(all.structuredContent).toMatchObject({ reembedded: 2, complete: true, index: { in_sync: true } });
  });

  it("lists the lifecycle tools with their annotations", async () => {
    const client = await connectAs(uniqueUser());
    const tools = (await client.listTools()).tools;
    const consolidate = tools.find((t) => t.name === "consolidate_memories");
    const regenerate = tools.find((t) => t.name === "regenerate_embeddings");
    // Listed without the hints at MCP's defaults (destructiveHint true): mcp/listed-schema.ts.
    expect(consolidate?.annotations).toEqual({ readOnlyHint: false, idempotentHint: true, openWorldHint: false });
    expect(regenerate?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(Object.keys((regenerate!.inputSchema as { properties: object }).properties)).toContain("all");
  });
});
