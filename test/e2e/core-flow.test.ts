import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const tracked = trackedConnect();
const connect = (key: string, transport: "mcp" | "sse" = "mcp") => tracked(key, { transport });

type Recall = { memories: { id: string; content: string }[]; stage: number };

describe("core flow over /mcp with the MCP SDK client", () => {
  it("saves Chinese and English memories and recalls the right one first", async () => {
    const { key } = await createKey({ user: uniqueUser("alice") });
    const client = await connect(key);
    for (const content of [
      "繁星喜欢哥特风服装",
      "喜欢的颜色是黑色、暗红色和紫色",
      "Prefers TypeScript for all new code",
    ]) {
      const saved = await callTool(client, "save_memory", { content });
      expect(saved.isError, textOf(saved)).toBeFalsy();
      expect(saved.structuredContent?.status).toBe("created");
    }
    const zh = await callTool(client, "recall_memory", { query: "喜欢什么服装", limit: 5 });
    expect((zh.structuredContent as Recall).memories[0].content).toBe("繁星喜欢哥特风服装");
    const en = await callTool(client, "recall_memory", { query: "which language do I prefer for new code?", limit: 5 });
    expect((en.structuredContent as Recall).memories[0].content).toBe("Prefers TypeScript for all new code");
  });

  it("answers an unrelated query with the plain nothing-remembered text", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const client = await connect(key);
    await callTool(client, "save_memory", { content: "Prefers TypeScript for all new code" });
    const r = await callTool(client, "recall_memory", { query: "weather forecast for the mountains", limit: 5 });
    expect((r.structuredContent as Recall).memories).toEqual([]);
    expect(textOf(r)).toBe("Nothing remembered about that.");
  });

  it("soft-deletes and restores", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const client = await connect(key);
    const saved = await callTool(client, "save_memory", { content: "My dog is called Biscuit" });
    const id = saved.structuredContent?.id as string;
    await callTool(client, "delete_memory", { id });
    const gone = await callTool(client, "recall_memory", { query: "dog name Biscuit", limit: 5 });
    expect((gone.structuredContent as Recall).memories).toEqual([]);
    const restored = await callTool(client, "restore_memory", { id });
    expect(restored.isError, textOf(restored)).toBeFalsy();
    const back = await callTool(client, "recall_memory", { query: "dog name Biscuit", limit: 5 });
    expect((back.structuredContent as Recall).memories.map((m) => m.id)).toEqual([id]);
  });

  it("rejects requests without a valid key with 401 and WWW-Authenticate", async () => {
    const none = await exports.default.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { host: "localhost", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.json()).toMatchObject({ error: "unauthorized" });
    const bad = await exports.default.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { host: "localhost", authorization: "Bearer hc_0000000000000000000000000000000000000000" },
        body: "{}",
      }),
    );
    expect(bad.status).toBe(401);
  });

  it("/sse lists the same tools as /mcp", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const http = await connect(key, "mcp");
    const sse = await connect(key, "sse");
    const a = (await http.listTools()).tools.map((t) => t.name).sort();
    const b = (await sse.listTools()).tools.map((t) => t.name).sort();
    expect(a).toContain("save_memory");
    expect(b).toEqual(a);
    const saved = await callTool(sse, "save_memory", { content: "I live in Lisbon" });
    expect(saved.structuredContent?.status).toBe("created");
  });
});
