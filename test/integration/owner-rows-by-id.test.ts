/**
 * "A memory row of this owner, by id" has one home (storage/d1-owner-scope.ts ownerIdsWhere): the
 * reads by id (get, getMany, recall's `rowsOf`, with and without search terms) and the marks by id
 * (touch, markIndexed) reach the owner's rows only — owners whose ids differ by a trailing space,
 * quotes, separators, brackets, SQL-looking text or CJK included, and owners with one user id in several
 * namespaces and accounts — and reach them by primary key.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import type { MemoryWrite } from "../../src/memory/ports";
import { indexTokens, queryTokens } from "../../src/memory/text/tokenize";
import type { Owner } from "../../src/memory/types";
import { ownerIdsBinds, ownerIdsWhere } from "../../src/storage/d1-owner-scope";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { ROWS_BY_ID_SQL } from "../../src/storage/memories/d1-rows-by-id";
import { collidingOwners, oddOwners } from "../helpers/odd-owners";

const CONTENT = "Harbour log: the ferry leaves at nine";

function writeOf(owner: Owner, id: string): MemoryWrite {
  const memory = buildMemory({ ...owner, actor: "test" }, id, `hash-${id}`, 1_700_000_000_000, {
    content: CONTENT,
    agentId: null,
  });
  return {
    memory,
    ftsTokens: indexTokens(CONTENT).join(" "),
    event: { memoryId: id, op: "create", before: null, after: memory, actor: "test", at: memory.createdAt },
  };
}

interface Marks {
  id: string;
  access_count: number;
  last_accessed_at: number | null;
  embedding_model: string | null;
  indexed_at: number | null;
}

async function marksOf(ids: string[]): Promise<Marks[]> {
  const { results } = await env.DB.prepare(
    "SELECT id, access_count, last_accessed_at, embedding_model, indexed_at FROM memories WHERE id IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(ids))
    .all<Marks>();
  const byId = new Map(results.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)!);
}

const options = { limit: 10, statuses: ["active" as const], contextWeight: 0.4 };

describe("memory rows by id", () => {
  it("reads and marks only the owner's rows among ids of every owner", async () => {
    const owners = [...oddOwners("byid"), ...collidingOwners("byid")];
    const ids = owners.map((o, i) => `byid-${i}-${o.userId.slice(0, 11)}-${o.namespace}-${o.accountId.slice(-6)}`);
    const repo = new D1MemoryRepo(env.DB);
    for (const [i, o] of owners.entries()) await repo.write(o, [writeOf(o, ids[i])], []);

    for (const [i, o] of owners.entries()) {
      expect(
        (await repo.getMany(o, ids)).map((m) => m.id),
        "getMany",
      ).toEqual([ids[i]]);
      expect(await repo.get(o, ids[i])).toMatchObject({ id: ids[i], userId: o.userId });
      for (const other of ids.filter((_, j) => j !== i)) expect(await repo.get(o, other)).toBeNull();
      const rowsOnly = await repo.searchLexical(o, [], { ...options, rowsOf: ids });
      expect(
        rowsOnly.rows.map((m) => m.id),
        "rowsOf without terms",
      ).toEqual([ids[i]]);
      const withHits = await repo.searchLexical(o, queryTokens("ferry"), { ...options, rowsOf: ids });
      expect(
        withHits.hits.map((h) => h.id),
        "hits",
      ).toEqual([ids[i]]);
      expect(
        withHits.rows.map((m) => m.id),
        "rowsOf with terms",
      ).toEqual([ids[i]]);
    }

    await repo.touch(owners[1], ids, 5);
    await repo.markIndexed(owners[2], ids, "model-x", 7);
    const marks = await marksOf(ids);
    expect(marks.map((m) => [m.access_count, m.last_accessed_at])).toEqual(
      ids.map((_, i) => (i === 1 ? [1, 5] : [0, null])),
    );
    expect(marks.map((m) => [m.embedding_model, m.indexed_at])).toEqual(
      ids.map((_, i) => (i === 2 ? ["model-x", 7] : [null, null])),
    );
  });

  it("reaches the rows by primary key, not by walking the owner's index (EXPLAIN QUERY PLAN)", async () => {
    const [owner] = oddOwners("byid-plan");
    for (const statement of [
      ROWS_BY_ID_SQL,
      `UPDATE memories SET access_count = access_count WHERE ${ownerIdsWhere("memories")}`,
    ]) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement}`)
        .bind(...ownerIdsBinds('["a","b"]', owner))
        .all<{ detail: string }>();
      const detail = results.map((r) => r.detail).join(" | ");
      expect(detail, statement).toMatch(/USING INDEX sqlite_autoindex_memories_1 \(id=\?\)/);
      expect(detail, statement).not.toMatch(/memories_owner/);
    }
  });
});
