import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LIMITS } from "../../src/memory/limits";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, postMcp, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

type Listed = { memories: { id: string; content: string; tags: string[] }[] };

describe("bad input is refused with the field and the rule, and nothing stored changes", () => {
  it("names the field and rule for each limit", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const client = await connect(key);
    const saved = await callTool(client, "save_memory", {
      content: "Keeps a sourdough starter named Bob",
      tags: ["baking"],
    });
    const id = saved.structuredContent?.id as string;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["save_memory", { content: "x".repeat(LIMITS.contentMaxChars + 1) }, /content.*at most 8000 characters/],
      [
        "save_memory",
        { content: "ok fine", tags: Array.from({ length: LIMITS.tagsMax + 1 }, (_, i) => `t${i}`) },
        /tags.*at most 20 tags/,
      ],
      [
        "save_memory",
        { content: "ok fine", tags: ["y".repeat(LIMITS.tagMaxChars + 1)] },
        /tags.*at most 50 characters/,
      ],
      ["save_memory", { content: "   " }, /content.*must not be empty/],
      ["save_memory", { content: "Likes tea", priority: 9 }, /priority/],
      ["update_memory", { id: "../../etc/passwd", content: "changed" }, /id.*must be 1-64 characters/],
      ["update_memory", { id, content: "z".repeat(LIMITS.contentMaxChars + 1) }, /content.*at most 8000/],
      ["recall_memory", { query: "" }, /query.*must not be empty/],
      ["recall_memory", { query: "tea", limit: 500 }, /limit/],
      ["list_memories", { cursor: "not-a-cursor" }, /cursor: must be a next_cursor/],
      ["forget_memories", {}, /filter: give at least one of/],
    ];
    for (const [tool, args, rule] of cases) {
      const r = await callTool(client, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args).slice(0, 60)}`).toBe(true);
      expect(textOf(r)).toMatch(rule);
      expect(textOf(r)).not.toMatch(/\bat \S+\.ts:\d+/);
    }
    const list = await callTool(client, "list_memories", { status: "all" });
    expect((list.structuredContent as Listed).memories).toEqual([
      expect.objectContaining({ id, content: "Keeps a sourdough starter named Bob", tags: ["baking"] }),
    ]);
  });

  it("answers an oversize body with 413 JSON and no stack trace", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "save_memory", arguments: { content: "a".repeat(LIMITS.bodyMaxBytes + 10) } },
    });
    const res = await postMcp(key, body);
    expect(res.status).toBe(413);
    const json = (await res.json()) as { error: string; message: string };
    expect(json.error).toBe("payload_too_large");
    expect(json.message).toContain(String(LIMITS.bodyMaxBytes));
  });

  it("answers unknown routes with JSON 404", async () => {
    const res = await exports.default.fetch(new Request("http://localhost/nope", { headers: { host: "localhost" } }));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});

describe("GET /health", () => {
  it("reports service, version, storage, index and embeddings", async () => {
    const res = await exports.default.fetch(new Request("http://localhost/health", { headers: { host: "localhost" } }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: "ok",
      service: "hippocampus",
      version: expect.any(String),
      storage: { kind: "d1", status: "ok" },
      vector_index: { kind: "local", status: "ok" },
      embeddings: { provider: "local", model: "local-hash-v1", status: "ok" },
      semantic_search: true,
      // Paid has no hard daily allowances; the account's usage is never faked.
      daily_limits: { plan: "paid", allowances: {}, account_usage_today: null },
    });
  });
});
