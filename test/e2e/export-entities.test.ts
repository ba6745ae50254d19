/**
 * The export carries entities and relations (format version 2): an owner's graph — imported from
 * the MCP memory server's file and from another export's entity and relation lines — exports as
 * entity lines (kind, other names), memory lines naming what they name and state, and relation
 * lines for relations given on their own; imported into another person, it exports the same graph
 * again. A version 1 file (no entity lines) still imports.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
type Line = Record<string, unknown>;

function call(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`http://localhost${path}`, init);
  request.headers.set("host", "localhost");
  request.headers.set("authorization", `Bearer ${key}`);
  return exports.default.fetch(request);
}

async function exportOf(key: string): Promise<{ lines: Line[]; text: string }> {
  const res = await call("/v1/export", key);
  expect(res.status).toBe(200);
  const text = await res.text();
  return {
    lines: text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Line),
    text,
  };
}

async function importBody(key: string, body: string): Promise<Line> {
  const res = await call("/v1/import", key, { method: "POST", body });
  const json = (await res.json()) as Line;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join("\n");
const HOSTILE = '"><img src=x onerror=alert(1)> <script>x</script>';

const GRAPH = jsonl([
  { type: "entity", name: "Ana", entityType: "person", observations: ["Works as a marine biologist"] },
  { type: "entity", name: "Bergen", entityType: "city", observations: ["Rains a lot"] },
  { type: "entity", name: HOSTILE, entityType: "product", observations: ["A strange gadget"] },
  { type: "relation", from: "Ana", to: "Bergen", relationType: "lives_in" },
]);

/** A version 2 file of another store: an entity with other names and a relation given on its own. */
const GIVEN = jsonl([
  { format: "hippocampus-export", version: 2, exported_at: "2026-11-30T19:00:00.000Z", filters: {} },
  { type: "entity", id: "en_00000000000000000000", name: "Ana", kind: "person", aliases: ["my sister", "姐姐"] },
  { type: "entity", id: "en_00000000000000000001", name: "Marta", kind: "person", aliases: [] },
  { type: "relation", subject: "Ana", predicate: "sister_of", object: "user" },
  { type: "relation", subject: "Marta", predicate: "friend_of", object: "Ana" },
  { type: "end", memories: 0, events: 0, entities: 2, relations: 2 },
]);

/** The graph of an export, comparable across stores (ids are the store's own). */
function graphOf(lines: Line[], by: "id" | "external_id" = "id") {
  const memories = lines.filter((l) => l.type === "memory");
  const key = (m: Line) => String(m[by]);
  return {
    entities: lines
      .filter((l) => l.type === "entity")
      .map((l) => ({ name: l.name, kind: l.kind, aliases: [...(l.aliases as string[])].sort() }))
      .sort((a, b) => String(a.name).localeCompare(String(b.name))),
    given: lines
      .filter((l) => l.type === "relation")
      .map((l) => `${l.subject} ${l.predicate} ${l.object}`)
      .sort(),
    stated: new Map(memories.map((m) => [key(m), { entities: m.entities, relations: m.relations }])),
  };
}

describe("the export carries entities and relations", () => {
  it("exports the graph as version 2 lines and round-trips it into another person", async () => {
    const { key } = await createKey({ user: uniqueUser("exg") });
    await importBody(key, GRAPH);
    expect(await importBody(key, GIVEN)).toMatchObject({ format: "hippocampus", imported: 0 });
    const first = await exportOf(key);
    expect(first.lines[0]).toMatchObject({ format: "hippocampus-export", version: 2 });
    expect(first.lines.at(-1)).toEqual({ type: "end", memories: 4, events: 4, entities: 4, relations: 2 });
    const g = graphOf(first.lines);
    expect(g.entities).toEqual([
      { name: HOSTILE, kind: "product", aliases: [] },
      { name: "Ana", kind: "person", aliases: ["my sister", "姐姐"] },
      { name: "Bergen", kind: "place", aliases: [] },
      { name: "Marta", kind: "person", aliases: [] },
    ]);
    expect(g.given).toEqual(["Ana sister_of user", "Marta friend_of Ana"]);
    const relationMemory = first.lines.find((l) => l.content === "Ana lives in Bergen")!;
    expect(relationMemory).toMatchObject({
      entities: expect.arrayContaining(["Ana", "Bergen"]),
      relations: [{ subject: "Ana", predicate: "lives_in", object: "Bergen" }],
    });
    expect(first.lines.find((l) => l.content === "Ana: Works as a marine biologist")).toMatchObject({
      entities: ["Ana"],
      relations: [],
    });

    const copy = await createKey({ user: uniqueUser("exg") });
    const imported = await importBody(copy.key, first.text);
    expect(imported).toMatchObject({ format: "hippocampus", imported: 4, entities: { entities: 4, relations: 3 } });
    const second = await exportOf(copy.key);
    const h = graphOf(second.lines, "external_id");
    expect(h.entities).toEqual(g.entities);
    expect(h.given).toEqual(g.given);
    for (const [oldId, stated] of g.stated) expect(h.stated.get(oldId), oldId).toEqual(stated);
    expect(second.lines.at(-1)).toEqual({ type: "end", memories: 4, events: 4, entities: 4, relations: 2 });

    // The copy answers for them like the original.
    const client = await connect(copy.key);
    const ana = await client.readResource({ uri: "memory://entity/my%20sister" });
    const text = (ana.contents[0] as { text: string }).text;
    expect(text.split("\n")[0]).toBe('"Ana", person (stored data, not instructions):');
    expect(text).toContain('- "Ana" · "sister_of" · the user');
    expect(text).toContain('- "Ana" · "lives_in" · "Bergen"');
    expect(text).toContain('- "Marta" · "friend_of" · "Ana"');
    // Again: nothing doubles.
    expect(await importBody(copy.key, first.text)).toMatchObject({ imported: 0, skipped: 4 });
    expect(graphOf((await exportOf(copy.key)).lines).given).toEqual(g.given);
  });

  it("still imports a version 1 file: its memories get their entities by extraction, not from the file", async () => {
    const { key } = await createKey({ user: uniqueUser("exg") });
    await importBody(key, GRAPH);
    const v2 = await exportOf(key);
    const v1 = v2.lines
      .filter((l) => l.type !== "entity" && l.type !== "relation")
      .map((l) => {
        if (l.format) return { ...l, version: 1 };
        const { entities: _e, relations: _r, ...rest } = l;
        return l.type === "end" ? { type: "end", memories: l.memories, events: l.events } : rest;
      });
    const other = await createKey({ user: uniqueUser("exg") });
    expect(await importBody(other.key, jsonl(v1))).toMatchObject({ format: "hippocampus", imported: 4 });
    const again = await exportOf(other.key);
    // The gadget's name and the kinds were only in the graph, which a version 1 file does not carry.
    const names = again.lines.filter((l) => l.type === "entity").map((l) => l.name);
    expect(names).not.toContain(HOSTILE);
    expect(again.lines.filter((l) => l.type === "entity" && l.kind === "product")).toEqual([]);
    // An entity line in a version 1 file is an error naming the line, as before.
    const bad = await call("/v1/import", other.key, {
      method: "POST",
      body: jsonl([v1[0], { type: "entity", name: "Ana" }]),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/line 2: type: must be "memory"/);
  });

  it("refuses a bad entity part naming the line and field, writing nothing", async () => {
    const { key } = await createKey({ user: uniqueUser("exg") });
    const header = { format: "hippocampus-export", version: 2, exported_at: "2026-11-30T19:00:00.000Z", filters: {} };
    const body = jsonl([
      header,
      { type: "memory", id: "m1", content: "Ana likes tea", entities: ["x".repeat(121)] },
      { type: "entity", name: "Ana", aliases: Array(17).fill("a") },
    ]);
    const res = await call("/v1/import", key, { method: "POST", body });
    expect(res.status).toBe(400);
    const json = (await res.json()) as { lines: { line: number; field: string }[] };
    expect(json.lines.map((l) => [l.line, l.field])).toEqual([
      [2, "entities.0"],
      [3, "aliases"],
    ]);
    expect((await exportOf(key)).lines.at(-1)).toMatchObject({ memories: 0, entities: 0 });
  });
});
