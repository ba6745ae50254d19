import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../../src/memory/import/formats/parse-import-body";
import { createKey, uniqueUser } from "../helpers/api-keys";

type Row = { content: string; category: string; tags: string; external_id: string | null; created_at: number };

async function post(key: string, body: string, query = ""): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await exports.default.fetch(
    new Request(`http://localhost/v1/import${query}`, {
      method: "POST",
      headers: { host: "localhost", authorization: `Bearer ${key}` },
      body,
    }),
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function rowsOf(user: string): Promise<Row[]> {
  const { results } = await env.DB.prepare(
    "SELECT content, category, tags, external_id, created_at FROM memories WHERE user_id = ? ORDER BY content",
  )
    .bind(user)
    .all<Row>();
  return results;
}

async function newUser(): Promise<{ user: string; key: string }> {
  const user = uniqueUser("fmt");
  return { user, key: (await createKey({ user })).key };
}

const graph = [
  { type: "entity", name: "Alice", entityType: "person", observations: ["Speaks fluent Spanish", "Graduated in 2019"] },
  { type: "entity", name: "Acme Corp", entityType: "organization", observations: ["Makes anvils"] },
  { type: "relation", from: "Alice", to: "Acme Corp", relationType: "works_at" },
]
  .map((l) => JSON.stringify(l))
  .join("\n");

const mem0 = JSON.stringify({
  results: [
    {
      id: "5f1c2b9e-1",
      memory: "Is vegetarian and allergic to nuts",
      categories: ["food", "health"],
      created_at: "2024-07-20T01:30:56.121946-07:00",
      user_id: "alex",
    },
    { id: "5f1c2b9e-2", memory: "Likes sci-fi movies", metadata: null, created_at: "2024-07-21T10:00:00Z" },
  ],
});

const markdown = [
  "# Preferences",
  "",
  "- Likes window seats on planes",
  "* [x] Takes oat milk in coffee",
  "",
  "## Work",
  "1. Team lead of the payments squad",
  "---",
  "```",
  "not a memory",
  "```",
].join("\n");

describe("POST /v1/import reads other memory servers' files", () => {
  it("the official MCP memory server's memory.jsonl: one memory per observation, relations too, entity names as tags", async () => {
    const { user, key } = await newUser();
    const r = await post(key, graph);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({
      format: "mcp-memory",
      imported: 4,
      entities: { entities: 2, relations: 1, mentions: 5 },
    });
    const rows = await rowsOf(user);
    expect(rows.map((m) => [m.content, m.category, JSON.parse(m.tags)])).toEqual([
      ["Acme Corp: Makes anvils", "organization", ["Acme Corp"]],
      ["Alice works at Acme Corp", "relation", ["Alice", "Acme Corp"]],
      ["Alice: Graduated in 2019", "person", ["Alice"]],
      ["Alice: Speaks fluent Spanish", "person", ["Alice"]],
    ]);
    expect((await post(key, graph)).json).toMatchObject({ imported: 0, skipped: 4 });
  });

  it("a mem0 get_all / OpenMemory export: memory, categories, created_at and id kept", async () => {
    const { user, key } = await newUser();
    const r = await post(key, mem0);
    expect(r.json).toMatchObject({ format: "mem0", imported: 2 });
    const rows = await rowsOf(user);
    expect(rows[0]).toMatchObject({
      content: "Is vegetarian and allergic to nuts",
      category: "food",
      external_id: "mem0:5f1c2b9e-1",
      created_at: Date.parse("2024-07-20T08:30:56.121Z"),
    });
    expect(JSON.parse(rows[0].tags)).toEqual(["food", "health"]);
    expect(rows[1]).toMatchObject({ content: "Likes sci-fi movies", category: "general" });
    // A bare array (OpenMemory's list) works too.
    const other = await newUser();
    const arr = JSON.stringify([{ id: 7, content: "Walks the dog at 7", categories: ["routine"] }]);
    expect((await post(other.key, arr)).json).toMatchObject({ format: "mem0", imported: 1 });
  });

  it("a mem0 file's user_id names an app key's end user; another user's file is refused", async () => {
    const alex = uniqueUser("alex");
    const { key } = await createKey({ user: uniqueUser("owner"), app: "mem0-app" });
    const body = JSON.stringify([
      { id: "m1", memory: "Likes tea", user_id: alex, updated_at: "2024-09-01T00:00:00Z" },
      { id: "m2", memory: "Walks the dog", user_id: alex },
    ]);
    const r = await post(key, body);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ format: "mem0", imported: 2 });
    const { results } = await env.DB.prepare(
      "SELECT content, updated_at FROM memories WHERE user_id = ? ORDER BY content",
    )
      .bind(alex)
      .all<{ content: string; updated_at: number }>();
    expect(results).toEqual([
      { content: "Likes tea", updated_at: Date.parse("2024-09-01T00:00:00Z") },
      { content: "Walks the dog", updated_at: expect.any(Number) },
    ]);
    const bob = uniqueUser("bob");
    const refused = await post(key, body, `?user_id=${bob}`);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: "invalid_input", field: "user_id" });
    expect(await rowsOf(bob)).toEqual([]);
    const mixed = JSON.stringify([...JSON.parse(body), { memory: "Other", user_id: bob }]);
    expect((await post(key, mixed)).json).toMatchObject({ field: "user_id" });
    // Not a mem0 file: an app key must still name the user.
    expect((await post(key, "- Likes tea")).json).toMatchObject({ field: "user_id" });
  });

  it("plain text and Markdown: one memory per line or bullet, headings become categories", async () => {
    const { user, key } = await newUser();
    const r = await post(key, markdown);
    expect(r.json).toMatchObject({ format: "text", imported: 3 });
    expect((await rowsOf(user)).map((m) => [m.content, m.category])).toEqual([
      ["Likes window seats on planes", "preferences"],
      ["Takes oat milk in coffee", "preferences"],
      ["Team lead of the payments squad", "work"],
    ]);
  });

  it("every format goes through the same validation, redaction and all-or-nothing rule", async () => {
    const { user, key } = await newUser();
    const tooLong = `${"- ok line\n"}- ${"x".repeat(9000)}\n`;
    const bad = await post(key, tooLong, "?format=text");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/line 2: content: must be at most 8000 characters/);
    const badGraph = await post(key, `${graph}\n{"type":"entity","observations":[]}`);
    expect(badGraph.status).toBe(400);
    expect(badGraph.json.message).toMatch(/line 4: name: an entity needs a name/);
    expect(await rowsOf(user)).toEqual([]);
    const secret = await post(key, "- my AWS key is AKIAIOSFODNN7EXAMPLE");
    expect(secret.json).toMatchObject({ imported: 1, redacted: 1 });
    expect((await rowsOf(user))[0].content).not.toContain("AKIAIOSFODNN7EXAMPLE");
  });

  it("detects each format, and ?format= overrides detection", async () => {
    expect(detectFormat(graph)).toBe("mcp-memory");
    expect(detectFormat(mem0)).toBe("mem0");
    expect(detectFormat(JSON.stringify(JSON.parse(mem0), null, 2))).toBe("mem0");
    expect(detectFormat(markdown)).toBe("text");
    expect(detectFormat('{"content":"Likes tea"}')).toBe("jsonl");
    expect(detectFormat('{"format":"hippocampus-export","version":1}\n')).toBe("hippocampus");
    const { user, key } = await newUser();
    const r = await post(key, '{"content":"Likes tea"}', "?format=text");
    expect(r.json).toMatchObject({ format: "text", imported: 1 });
    expect((await rowsOf(user))[0].content).toBe('{"content":"Likes tea"}');
    expect((await post(key, "x", "?format=yaml")).json).toMatchObject({ field: "format" });
  });
});
