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

  it("answers nothing when the only match is one word of a question about something else, first call included", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const client = await connect(key);
    for (const content of [
      "Jon: we watched the parade downtown with the kids",
      "Jon: I lost my job at the bank last month",
      "Gina: I opened my own dance studio",
      "Gina: my favourite food is spicy ramen",
    ])
      await callTool(client, "save_memory", { content });
    // "parade" alone matches (a positive BM25 score above the lexical floor), but the question is
    // about Caroline, painting and LGBTQ pride, which no memory holds.
    const question = "What did Caroline paint for the LGBTQ pride parade?";
    for (const args of [{ limit: 10 }, {}]) {
      const r = await callTool(client, "recall_memory", { query: question, ...args });
      expect((r.structuredContent as Recall).memories, JSON.stringify(args)).toEqual([]);
      expect(textOf(r)).toBe("Nothing remembered about that.");
    }
    const own = await callTool(client, "recall_memory", { query: "Which parade did Jon watch downtown?", limit: 10 });
    expect((own.structuredContent as Recall).memories[0].content).toBe(
      "Jon: we watched the parade downtown with the kids",
    );
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
