import { exports } from "cloudflare:workers";
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { trackedConnect } from "../helpers/mcp-client";

const connectMcp = trackedConnect();

/** Server-Timing entries by name: dur (ms) and desc. */
function parseServerTiming(header: string | null): Map<string, { dur?: number; desc?: string }> {
  const out = new Map<string, { dur?: number; desc?: string }>();
  for (const entry of (header ?? "").split(",")) {
    const [name, ...params] = entry.trim().split(";");
    if (!name) continue;
    const metric: { dur?: number; desc?: string } = {};
    for (const p of params) {
      const [k, v] = p.split("=");
      if (k === "dur") metric.dur = Number(v);
      if (k === "desc") metric.desc = v.replace(/^"|"$/g, "");
    }
    out.set(name, metric);
  }
  return out;
}

const NAMES = [
  "auth",
  "do",
  "d1",
  "d1-sql",
  "index",
  "rank",
  "total",
  "d1-queries",
  "d1-sequential",
  "d1-rows-read",
  "d1-rows-written",
  "do-sql-rows-read",
  "do-sql-rows-written",
];

/** An MCP client that keeps the Server-Timing header of each /mcp response. */
async function timedClient(key: string): Promise<{ client: Client; last: () => ReturnType<typeof parseServerTiming> }> {
  let header: string | null = null;
  const client = await connectMcp(key, {
    observe: (response, init) => {
      if (init?.method === "POST") header = response.headers.get("server-timing");
    },
  });
  return { client, last: () => parseServerTiming(header) };
}

describe("Server-Timing", () => {
  it("a recall over /mcp reports auth, the Durable Object's D1 work and phases, and D1 counts", async () => {
    const { key } = await createKey({ user: uniqueUser("timing") });
    const { client, last } = await timedClient(key);
    await client.callTool({ name: "save_memory", arguments: { content: "The staging database lives in Frankfurt" } });
    const save = last();
    expect(Number(save.get("d1-queries")?.desc)).toBeGreaterThan(0);
    // D1's own meta: a save writes the memory row, its FTS row and its event at least.
    expect(Number(save.get("d1-rows-written")?.desc)).toBeGreaterThanOrEqual(3);
    // The object's own SQLite: the local vector index (this environment's) keeps the memory's vector there.
    expect(Number(save.get("do-sql-rows-written")?.desc)).toBeGreaterThanOrEqual(1);
    await client.callTool({ name: "recall_memory", arguments: { query: "where is the staging database", limit: 5 } });
    const recall = last();
    for (const name of NAMES) expect(recall.has(name), `${name} in ${[...recall.keys()]}`).toBe(true);
    expect(recall.get("do")?.dur).toBeGreaterThan(0);
    expect(recall.get("total")?.dur).toBeGreaterThanOrEqual(recall.get("do")?.dur ?? 0);
    expect(Number(recall.get("d1-queries")?.desc)).toBeGreaterThanOrEqual(1);
    expect(Number(recall.get("d1-sequential")?.desc)).toBeGreaterThanOrEqual(1);
    expect(Number(recall.get("d1-sequential")?.desc)).toBeLessThanOrEqual(Number(recall.get("d1-queries")?.desc));
    // The recall found the saved row, so D1 read at least that row; a recall writes no rows itself.
    expect(Number(recall.get("d1-rows-read")?.desc)).toBeGreaterThanOrEqual(1);
    expect(Number(recall.get("d1-rows-written")?.desc)).toBeGreaterThanOrEqual(0);
    expect(Number(recall.get("do-sql-rows-written")?.desc)).toBe(0);
    // The key was looked up in D1 by an earlier request of this client; now it comes from the cache.
    expect(recall.get("auth")?.desc).toBe("cache");
  });

  it("D1 round trips one after another: save ≤ 3, recall ≤ 2, list ≤ 1", async () => {
    const { key } = await createKey({ user: uniqueUser("timing-trips") });
    const { client, last } = await timedClient(key);
    const sequential = () => Number(last().get("d1-sequential")?.desc);
    await client.callTool({ name: "save_memory", arguments: { content: "Backups run nightly at two in the morning" } });
    expect(sequential()).toBeLessThanOrEqual(3);
    await client.callTool({ name: "save_memory", arguments: { content: "The office plants are watered on Mondays" } });
    expect(sequential()).toBeLessThanOrEqual(3);
    await client.callTool({ name: "save_memory", arguments: { content: "Backups run nightly at two in the morning" } });
    expect(sequential()).toBeLessThanOrEqual(3); // an exact duplicate, merged
    await client.callTool({ name: "recall_memory", arguments: { query: "when do backups run", limit: 5 } });
    expect(sequential()).toBeLessThanOrEqual(2);
    await client.callTool({ name: "recall_memory", arguments: { query: "when do backups run" } });
    expect(sequential()).toBeLessThanOrEqual(2); // progressive injection, stage 1: core memories read alongside
    await client.callTool({ name: "list_memories", arguments: {} });
    expect(sequential()).toBeLessThanOrEqual(1);
  });

  it("POST /v1/import and a 401 carry the header too", async () => {
    const { key } = await createKey({ user: uniqueUser("timing-import") });
    const res = await exports.default.fetch(
      new Request("http://localhost/v1/import", {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body: JSON.stringify({ content: "Imported with timings", external_id: "t-1" }),
      }),
    );
    expect(res.status).toBe(200);
    const imported = parseServerTiming(res.headers.get("server-timing"));
    for (const name of NAMES) expect(imported.has(name), name).toBe(true);
    expect(imported.get("auth")?.desc).toBe("d1");
    expect(Number(imported.get("d1-queries")?.desc)).toBeGreaterThan(0);
    const denied = await exports.default.fetch(
      new Request("http://localhost/mcp", { method: "POST", headers: { host: "localhost" }, body: "{}" }),
    );
    expect(denied.status).toBe(401);
    expect(parseServerTiming(denied.headers.get("server-timing")).get("d1-queries")?.desc).toBe("0");
  });
});
