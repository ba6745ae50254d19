/**
 * Multi-row writes on the real D1 (storage/d1-bulk-rows.ts): a write of many memories is a few
 * statements whose rows travel as one JSON parameter each, and every field comes back exactly as
 * written — Unicode, quotes, nulls, numbers — with its FTS row and its event, in order.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import { ownerAddress } from "../../src/memory/owner-address";
import type { MemoryWrite } from "../../src/memory/ports";
import type { Memory } from "../../src/memory/types";
import { jsonChunks, jsonIdChunks } from "../../src/storage/d1-bulk-rows";
import { FTS_BLOCK_SPAN } from "../../src/storage/lexical/fts-owner-block";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { MeteredD1 } from "../../src/storage/metered-d1";
import { uniqueUser } from "../helpers/api-keys";

const scopeOf = (userId: string) => ({ accountId: "default", namespace: "user", userId, actor: "test" });

const TEXTS = [
  "Quotes \" and ' and back\\slash, a tab\tand a newline\n",
  "繁星喜欢哥特风服装 😀 𠀀 naïve café",
  "plain words about green tea",
  "a NUL \u0000 inside and a \u2028 line separator",
];

function writeOf(scope: ReturnType<typeof scopeOf>, i: number): MemoryWrite {
  const memory: Memory = {
    ...buildMemory(scope, `m${String(i).padStart(5, "0")}`, `hash${i}`, 1_700_000_000_000 + i, {
      content: `${TEXTS[i % TEXTS.length]} #${i}`,
      category: "food",
      tags: ["a", `t${i}`],
      priority: 2,
      confidence: 0.75,
      source: i % 2 ? `conv-${i}` : null,
      externalId: `ext-${i}`,
      eventTime: i % 3 ? 1_690_000_000_000 + i : null,
      agentId: null,
    }),
    importance: 0.5,
  };
  return {
    memory,
    ftsTokens: `green tea w${i}`,
    contextTokens: i % 2 ? `neighbour${i}` : "",
    event: { memoryId: memory.id, op: "create", before: null, after: memory, actor: "test", at: memory.createdAt },
  };
}

describe("multi-row D1 writes", () => {
  it("writes 300 memories as 4 statements in one batch (rows, the owner's FTS block, FTS rows, events), every field as written", async () => {
    const scope = scopeOf(uniqueUser("bulk-rows"));
    const counted: number[] = [];
    const repo = new D1MemoryRepo(
      new MeteredD1(env.DB, (statements) => {
        counted.push(statements);
        return () => undefined;
      }),
    );
    const writes = Array.from({ length: 300 }, (_, i) => writeOf(scope, i));
    await repo.write(scope, writes, []);
    expect(counted).toEqual([4]);

    const back = await repo.getMany(
      scope,
      writes.map((w) => w.memory.id),
    );
    const byId = new Map(back.map((m) => [m.id, m]));
    expect(byId.size).toBe(300);
    for (const w of writes) expect(byId.get(w.memory.id)).toEqual(w.memory);

    const hits = await repo.searchText(scope, ["w7"], 10);
    expect(hits.map((h) => h.id)).toEqual(["m00007"]);
    const events = await repo.history(scope, "m00042");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ op: "create", after: { content: writes[42].memory.content } });
    // Event ids follow the order of the rows.
    const order = await env.DB.prepare("SELECT memory_id FROM memory_events WHERE user_id = ? ORDER BY id")
      .bind(scope.userId)
      .all<{ memory_id: string }>();
    expect(order.results.map((r) => r.memory_id)).toEqual(writes.map((w) => w.memory.id));
    // FTS rows take consecutive rowids of the owner's block, in the order of the rows.
    const fts = await env.DB.prepare(
      "SELECT f.rowid AS r, f.memory_id AS id, b.block AS block FROM memories_fts f JOIN fts_owner_blocks b ON b.owner = f.owner WHERE f.owner = ? ORDER BY f.rowid",
    )
      .bind(ownerAddress(scope))
      .all<{ r: number; id: string; block: number }>();
    expect(fts.results.map((x) => x.id)).toEqual(writes.map((w) => w.memory.id));
    expect(fts.results.map((x) => x.r - x.block * FTS_BLOCK_SPAN)).toEqual(writes.map((_, i) => i + 1));
    expect((await repo.findByExternalIds(scope, ["ext-3", "ext-299", "nope"])).map((m) => m.id).sort()).toEqual([
      "m00003",
      "m00299",
    ]);
  });

  it("cuts JSON parameters under the byte limit without losing or reordering rows", () => {
    const rows = Array.from({ length: 50 }, (_, i) => [`row ${i} ${"é".repeat(i * 10)}`, i, null]);
    const chunks = jsonChunks(rows, 2_000);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(new TextEncoder().encode(c).byteLength).toBeLessThanOrEqual(2_000);
    expect(chunks.flatMap((c) => JSON.parse(c))).toEqual(rows);
    expect(jsonIdChunks(["a", "b", "a"])).toEqual(['["a","b"]']);
  });
});
