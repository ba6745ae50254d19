/**
 * The pure parts of an imported entity graph: another system's entity types as kinds, relation
 * types as predicates the store takes, the MCP memory server's file as memories plus what each
 * names and states, and each landed line mapped to its memory.
 */
import { describe, expect, it } from "vitest";
import { entityKind } from "../../src/memory/import/formats/entity-kind";
import { convertMcpMemory } from "../../src/memory/import/formats/mcp-memory-format";
import { relationPredicate, statedFor } from "../../src/memory/import/import-graph";

describe("entity kinds from another system's types", () => {
  it("maps common words and plurals, whatever the case, and anything else to other", () => {
    expect(
      ["Person", "people", "company", "Organisation", "city", "dog", "software", "meeting"].map(entityKind),
    ).toEqual(["person", "person", "organization", "organization", "place", "pet", "product", "event"]);
    expect(["cities", "公司", "spaceship", "", 7, null].map(entityKind)).toEqual([
      "other",
      "organization",
      "other",
      "other",
      "other",
      "other",
    ]);
  });
});

describe("relation types as predicates", () => {
  it("keeps letters, digits, spaces and _, turning every other run into one _", () => {
    expect(relationPredicate("works_at")).toBe("works_at");
    expect(relationPredicate("owns.pet")).toBe("owns_pet");
    expect(relationPredicate(" friend--of!! ")).toBe("friend_of");
    expect(relationPredicate("是…的表哥")).toBe("是_的表哥");
    expect(relationPredicate("→→")).toBe("related_to");
    expect(relationPredicate("x".repeat(100))).toHaveLength(64);
  });

  it("takes linear time on a hostile relation type", () => {
    const started = performance.now();
    relationPredicate(`${"-_".repeat(50_000)}a`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("the MCP memory server's file as memories and a graph", () => {
  const body = [
    { type: "entity", name: "Alice", entityType: "person", observations: ["Speaks Spanish"] },
    { type: "relation", from: "Alice", to: "Acme", relationType: "works-at" },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n");

  it("names each observation's entity, states each relation on its own memory, and defines every end", () => {
    const c = convertMcpMemory(body);
    if (!c.ok) throw new Error("not converted");
    expect(c.records.map((r) => (r.value as { content: string }).content)).toEqual([
      "Alice: Speaks Spanish",
      "Alice works at Acme",
    ]);
    expect(c.graph?.entities).toEqual([
      { name: "Alice", kind: "person", aliases: [] },
      { name: "Acme", kind: "other", aliases: [] },
    ]);
    expect(c.graph?.stated).toEqual([
      { externalId: "mcp-memory:entity:Alice:0", entities: ["Alice"], relations: [] },
      {
        externalId: "mcp-memory:relation:Alice:works-at:Acme",
        entities: ["Alice", "Acme"],
        relations: [{ subject: "Alice", predicate: "works_at", object: "Acme" }],
      },
    ]);
    const stated = statedFor(c.graph!, new Map([["mcp-memory:relation:Alice:works-at:Acme", "m2"]]));
    expect(stated).toEqual([
      {
        memoryId: "m2",
        entities: [
          { name: "Alice", kind: "person", aliases: [] },
          { name: "Acme", kind: "other", aliases: [] },
        ],
        relations: [{ subject: "Alice", predicate: "works_at", object: "Acme" }],
      },
    ]);
  });

  it("refuses a name longer than the store keeps, naming the line", () => {
    const c = convertMcpMemory(JSON.stringify({ type: "entity", name: "x".repeat(121), observations: [] }));
    expect(c).toEqual({ ok: false, errors: [{ line: 1, field: "name", message: "must be at most 120 characters" }] });
  });
});
