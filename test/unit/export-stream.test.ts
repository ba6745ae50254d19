/**
 * The export stream is pull-based: it reads a page only when the consumer has taken the previous
 * one, so a slow or stalled download never makes the Worker hold more than one page. A fake reader counts the pages read.
 */
import { describe, expect, it } from "vitest";
import { decodeExportCursor } from "../../src/memory/export/export-cursor";
import type { ExportedEntity, StatedEntities } from "../../src/memory/export/export-format";
import { exportStream } from "../../src/memory/export/export-stream";
import { buildMemory } from "../../src/memory/memory-factory";
import type { ExportReader, Keyset } from "../../src/memory/ports";
import type { Memory, MemoryEvent, Owner } from "../../src/memory/types";

const OWNER: Owner = { accountId: "acc", namespace: "user", userId: "u" };

function fakeReader(total: number): ExportReader & { pages: number; keysets: (Keyset | null)[] } {
  const rows: Memory[] = Array.from({ length: total }, (_, i) =>
    buildMemory({ ...OWNER, actor: "test" }, `m${String(i).padStart(6, "0")}`, `h${i}`, 1_000 + i, {
      content: `memory ${i}`,
      agentId: null,
    }),
  );
  const reader = {
    pages: 0,
    keysets: [] as (Keyset | null)[],
    async exportPage(_o: Owner, _f: unknown, after: Keyset | null, limit: number): Promise<Memory[]> {
      reader.pages++;
      reader.keysets.push(after);
      const start = after ? rows.findIndex((m) => m.createdAt > after.createdAt) : 0;
      return start < 0 ? [] : rows.slice(start, start + limit);
    },
    async count(): Promise<number> {
      return total;
    },
    async eventsOf(_o: Owner, ids: string[]): Promise<Map<string, MemoryEvent[]>> {
      return new Map(ids.map((id) => [id, []]));
    },
    // The first memory names Ana and states that she is the user's sister; two entities, one given relation.
    async statedOf(_o: Owner, ids: string[]): Promise<Map<string, StatedEntities>> {
      const stated = { entities: ["Ana"], relations: [{ subject: "Ana", predicate: "sister_of", object: "user" }] };
      return new Map(ids.filter((id) => id === "m000000").map((id) => [id, stated]));
    },
    async entityPage(_o: Owner, after: string, limit: number): Promise<ExportedEntity[]> {
      const all = [
        { id: "en_a", name: "Ana", kind: "person", aliases: ["my sister"] },
        { id: "en_b", name: "Bergen", kind: "place", aliases: [] },
      ];
      return all.filter((e) => e.id > after).slice(0, limit);
    },
    async givenRelationPage(_o: Owner, after: number) {
      return after < 7 ? [{ position: 7, relation: { subject: "Ana", predicate: "lives_in", object: "Bergen" } }] : [];
    },
  };
  return reader;
}

const decoder = new TextDecoder();

describe("export stream", () => {
  it("reads the next page only when the consumer asks for it", async () => {
    const reader = fakeReader(1000);
    const stream = exportStream(reader, OWNER, { status: "all" }, 0, 100);
    await new Promise((r) => setTimeout(r, 10));
    expect(reader.pages).toBe(0); // nothing read before the first pull
    const r = stream.getReader();
    const header = JSON.parse(decoder.decode((await r.read()).value));
    expect(header).toMatchObject({ format: "hippocampus-export", version: 2 });
    expect(reader.pages).toBe(0);
    await r.read();
    await r.read();
    await new Promise((r) => setTimeout(r, 10));
    expect(reader.pages).toBe(2); // a stalled consumer: no read-ahead
    r.releaseLock();
    await stream.cancel();
  });

  it("walks every row once by keyset, then the entities and given relations, and ends with the counts", async () => {
    const reader = fakeReader(250);
    const text = await new Response(exportStream(reader, OWNER, { status: "all" }, 0, 100)).text();
    const lines = text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const ids = lines.filter((l) => l.type === "memory").map((l) => l.id);
    expect(new Set(ids).size).toBe(250);
    expect(lines[1]).toMatchObject({
      id: "m000000",
      entities: ["Ana"],
      relations: [{ subject: "Ana", predicate: "sister_of", object: "user" }],
    });
    // Not extracted yet: null, not "names nothing".
    expect(lines[2]).toMatchObject({ id: "m000001", entities: null, relations: [] });
    expect(lines.slice(-4)).toEqual([
      { type: "entity", id: "en_a", name: "Ana", kind: "person", aliases: ["my sister"] },
      { type: "entity", id: "en_b", name: "Bergen", kind: "place", aliases: [] },
      { type: "relation", subject: "Ana", predicate: "lives_in", object: "Bergen" },
      { type: "end", memories: 250, events: 0, entities: 2, relations: 1 },
    ]);
    expect(reader.keysets.map((k) => k?.id ?? null)).toEqual([null, "m000099", "m000199"]);
  });

  it("ends a part with a next cursor when no page fits, and the next part goes on from it without a header", async () => {
    const reader = fakeReader(250);
    let pagesLeft = 1;
    const more = () => pagesLeft-- > 0;
    const parse = (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
    const first = parse(
      await new Response(exportStream(reader, OWNER, { status: "all" }, 5, 100, { more, total: 250 })).text(),
    );
    expect(first[0]).toMatchObject({ format: "hippocampus-export" });
    expect(first.at(-1)).toMatchObject({ type: "next", memories: 200 });
    const resume = decodeExportCursor(first.at(-1).cursor);
    expect(resume).toMatchObject({ after: { id: "m000199" }, memories: 200, total: 250, exportedAt: 5 });
    const second = parse(
      await new Response(
        exportStream(reader, OWNER, resume.filter, 99, 100, { more: () => true, resume, total: resume.total }),
      ).text(),
    );
    expect(second.some((l) => l.format !== undefined)).toBe(false);
    const ids = [...first, ...second].filter((l) => l.type === "memory").map((l) => l.id);
    expect(new Set(ids).size).toBe(250);
    expect(second.at(-1)).toEqual({ type: "end", memories: 250, events: 0, entities: 2, relations: 1 });
  });

  it("continues an export whose part ended after the entities, without repeating a line", async () => {
    const reader = fakeReader(100);
    let pagesLeft = 2; // checks after the first page: two more fit
    const parse = (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l));
    const first = parse(
      await new Response(
        exportStream(reader, OWNER, { status: "all" }, 5, 100, { more: () => pagesLeft-- > 0, total: 100 }),
      ).text(),
    );
    const resume = decodeExportCursor(first.at(-1).cursor);
    // Three pages fit: the memories, the empty page that ends them, the entities.
    expect(resume).toMatchObject({ phase: "relations", afterEntity: "en_b", entities: 2, memories: 100 });
    const second = parse(
      await new Response(
        exportStream(reader, OWNER, resume.filter, 9, 100, { more: () => true, resume, total: 100 }),
      ).text(),
    );
    expect(second).toEqual([
      { type: "relation", subject: "Ana", predicate: "lives_in", object: "Bergen" },
      { type: "end", memories: 100, events: 0, entities: 2, relations: 1 },
    ]);
    expect(first.filter((l) => l.type === "entity")).toHaveLength(2);
  });

  it("refuses a cursor it did not write, naming the field", () => {
    expect(() => decodeExportCursor("bm90LWEtY3Vyc29y")).toThrow(/cursor/);
  });
});
