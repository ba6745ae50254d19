import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseImportLines } from "../../src/memory/import/parse-import-lines";
import { ftsOwnerKey, OWNER_ADDRESS_SQL, ownerAddress } from "../../src/memory/owner-address";
import { ftsMatchExpression, queryTokens } from "../../src/memory/text/tokenize";
import { D1LexicalSearch } from "../../src/storage/lexical/d1-lexical-search";
import { ftsColumnsMatch } from "../../src/storage/lexical/fts-owner-key";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { uniqueUser } from "../helpers/api-keys";

function stubFor(userId: string) {
  return env.USER_MEMORY.get(
    env.USER_MEMORY.idFromName(ownerAddress({ accountId: "default", namespace: "user", userId })),
  );
}

async function importInto(userId: string, lines: object[]) {
  const parsed = parseImportLines(lines.map((l) => JSON.stringify(l)).join("\n"));
  if (!parsed.ok) throw new Error("bad test lines");
  const r = await stubFor(userId).import(
    { accountId: "default", namespace: "user", userId, actor: "test" },
    parsed.lines,
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const turns = [
  { content: "Melanie: What did you paint last weekend?", source: "s1", external_id: "t1" },
  { content: "Caroline: A sunrise over the lake, it took me hours.", source: "s1", external_id: "t2" },
  { content: "Melanie: My kids love pottery class.", source: "s2", external_id: "t3" },
];

describe("lexical search with neighbour context (real D1 FTS5)", () => {
  it("finds a turn through its neighbour's words, weighted below its own words", async () => {
    const userId = uniqueUser("lex");
    const imported = await importInto(userId, turns);
    const idOf = Object.fromEntries(imported.items.map((i) => [i.external_id, i.id]));
    const repo = new D1MemoryRepo(env.DB);
    const owner = { accountId: "default", namespace: "user", userId };
    const found = await repo.searchLexical(owner, queryTokens("Caroline paint"), {
      limit: 10,
      statuses: ["active"],
      contextWeight: 0.4,
    });
    const ids = found.hits.map((h) => h.id);
    expect(ids).toContain(idOf.t2);
    expect(ids).not.toContain(idOf.t3);
    const withoutContext = await repo.searchLexical(owner, queryTokens("paint"), {
      limit: 10,
      statuses: ["active"],
      contextWeight: 0,
    });
    const own = withoutContext.hits.find((h) => h.id === idOf.t1)!;
    const viaNeighbour = withoutContext.hits.find((h) => h.id === idOf.t2);
    expect(own.score).toBeGreaterThan(0);
    expect(viaNeighbour?.score ?? 0).toBeCloseTo(0, 5);
  });

  it("reports the corpus size bm25() uses: the row count of the whole FTS table", async () => {
    await importInto(uniqueUser("lex"), turns);
    const repo = new D1MemoryRepo(env.DB);
    const found = await repo.searchLexical(
      { accountId: "default", namespace: "user", userId: uniqueUser("nobody") },
      ["sunris"],
      {
        limit: 5,
        statuses: ["active"],
        contextWeight: 0.4,
      },
    );
    const counted = await env.DB.prepare("SELECT count(*) AS n FROM memories_fts").first<{ n: number }>();
    expect(found.hits).toEqual([]);
    expect(found.corpusSize).toBe(counted!.n);
    expect(found.corpusSize).toBeGreaterThanOrEqual(3);
  });

  it("keeps a memory's neighbour context when its content is edited", async () => {
    const userId = uniqueUser("lex");
    const imported = await importInto(userId, turns);
    const id = imported.items.find((i) => i.external_id === "t2")!.id;
    const before = await env.DB.prepare("SELECT context FROM memories_fts WHERE memory_id = ?")
      .bind(id)
      .first<{ context: string }>();
    const updated = await stubFor(userId).update(
      { accountId: "default", namespace: "user", userId, actor: "test" },
      { id, content: "Caroline: A sunset over the sea." },
    );
    expect(updated.ok).toBe(true);
    const rows = await env.DB.prepare("SELECT tokens, context FROM memories_fts WHERE memory_id = ?")
      .bind(id)
      .all<{ tokens: string; context: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0].tokens).toContain("sunset");
    expect(rows.results[0].context).toBe(before!.context);
    expect(rows.results[0].context).toContain("paint");
  });

  it("leaves duplicate and conflict checks on a memory's own words only", async () => {
    const userId = uniqueUser("lex");
    const imported = await importInto(userId, turns);
    const repo = new D1MemoryRepo(env.DB);
    const hits = await repo.searchText({ accountId: "default", namespace: "user", userId }, queryTokens("paint"), 10);
    expect(hits.map((h) => h.id)).toEqual([imported.items[0].id]);
  });

  it("scopes matching to the owner's rows inside FTS5, case-exact, with the same key SQL computes", async () => {
    const suffix = uniqueUser("case");
    const upper = `Lex-${suffix}`,
      lower = `lex-${suffix}`;
    await importInto(upper, [{ content: "Loves kayaking on the fjord" }]);
    const mine = await importInto(lower, [{ content: "Went kayaking once" }]);
    const repo = new D1MemoryRepo(env.DB);
    const found = await repo.searchLexical(
      { accountId: "default", namespace: "user", userId: lower },
      queryTokens("kayaking fjord"),
      {
        limit: 10,
        statuses: ["active"],
        contextWeight: 0.4,
      },
    );
    expect(found.hits.map((h) => h.id)).toEqual([mine.items[0].id]);
    expect(found.rows.map((m) => m.userId)).toEqual([lower]);
    const owner = { accountId: "default", namespace: "user", userId: upper };
    const sqlKey = await env.DB.prepare(
      `SELECT lower(hex(${OWNER_ADDRESS_SQL})) AS k FROM (SELECT ? AS account_id, ? AS namespace, ? AS user_id)`,
    )
      .bind("default", "user", upper)
      .first<{ k: string }>();
    expect(ftsOwnerKey(owner)).toBe(sqlKey!.k);
    const stored = await env.DB.prepare("SELECT owner_key, memory_id FROM memories_fts WHERE owner = ?")
      .bind(ownerAddress(owner))
      .first<{ owner_key: string; memory_id: string }>();
    // The owner token, then the row's own token (migrations/0008).
    expect(stored!.owner_key).toBe(`${ftsOwnerKey(owner)} m${stored!.memory_id}`);
  });

  it("ranks exactly as bm25() over the owner's matched rows, reading ids and owners of the best rows only", async () => {
    const userId = uniqueUser("lex");
    const lines = Array.from({ length: 40 }, (_, i) => ({
      content: `${i % 2 ? "Melanie" : "Caroline"}: ${i % 3 ? "pottery" : "painting"} class number ${i} ${i % 5 ? "" : "sunrise lake"}`,
      source: `conv-${Math.floor(i / 10)}`,
    }));
    await importInto(userId, lines);
    const owner = { accountId: "default", namespace: "user", userId };
    const tokens = queryTokens("pottery sunrise lake");
    const found = await new D1MemoryRepo(env.DB).searchLexical(owner, tokens, {
      limit: 12,
      statuses: ["active"],
      contextWeight: 0.4,
    });
    // The same ranking read the plain way: every matched row of the whole table, its exact owner
    // checked (no rowid block), its memory_id read, then the join.
    const plain = await env.DB.prepare(
      `SELECT f.memory_id AS id, -bm25(memories_fts, 1.0, 0.4, 0.0) AS s FROM memories_fts f
       JOIN memories m ON m.id = f.memory_id AND m.status = 'active'
       WHERE memories_fts MATCH ? AND f.owner = ? ORDER BY s DESC LIMIT 12`,
    )
      .bind(ftsColumnsMatch(ftsMatchExpression(tokens), "tokens context"), ownerAddress(owner))
      .all<{ id: string; s: number }>();
    expect(found.hits.length).toBe(12);
    expect(found.hits).toEqual(plain.results.map((r) => ({ id: r.id, score: r.s })));
    expect(found.rows.map((m) => m.id)).toEqual(found.hits.map((h) => h.id));
  });

  it("drops a best-scored FTS row whose exact owner is another user's, even inside this owner's block with its token", async () => {
    const victim = uniqueUser("lex");
    const other = uniqueUser("lex");
    const mine = await importInto(victim, [{ content: "Went kayaking once" }]);
    const theirs = await importInto(other, [{ content: "kayaking kayaking kayaking" }]);
    const owner = { accountId: "default", namespace: "user", userId: victim };
    const otherOwner = { accountId: "default", namespace: "user", userId: other };
    // A forged row: in the victim's block of rowids, with the victim's owner token, the other user's
    // memory and owner address.
    await env.DB.prepare(
      "INSERT INTO memories_fts (rowid, tokens, context, owner_key, memory_id, owner) SELECT block * 4294967296 + 1000000, 'kayak kayak kayak', '', ?, ?, ? FROM fts_owner_blocks WHERE owner = ?",
    )
      .bind(ftsOwnerKey(owner), theirs.items[0].id, ownerAddress(otherOwner), ownerAddress(owner))
      .run();
    const forged = await env.DB.prepare("SELECT count(*) AS n FROM memories_fts WHERE rowid = ?")
      .bind(
        (await env.DB.prepare("SELECT block FROM fts_owner_blocks WHERE owner = ?")
          .bind(ownerAddress(owner))
          .first<{ block: number }>())!.block *
          4294967296 +
          1000000,
      )
      .first<{ n: number }>();
    expect(forged!.n).toBe(1);
    const found = await new D1MemoryRepo(env.DB).searchLexical(owner, queryTokens("kayaking"), {
      limit: 5,
      statuses: ["active"],
      contextWeight: 0.4,
    });
    expect(found.hits.map((h) => h.id)).toEqual([mine.items[0].id]);
    expect(found.rows.map((m) => m.userId)).toEqual([victim]);
  });

  it("looks deeper when the best-scored rows are deleted, and returns live rows only", async () => {
    const userId = uniqueUser("lex");
    const strong = Array.from({ length: 6 }, (_, i) => ({ content: `kayak kayak kayak ${i}` }));
    const weak = [
      { content: "A kayak trip to the lake with old friends" },
      { content: "Sold the kayak to a neighbour last spring" },
    ];
    const imported = await importInto(userId, [...strong, ...weak]);
    const scope = { accountId: "default", namespace: "user", userId, actor: "test" };
    const deleted = await stubFor(userId).delete(scope, { ids: imported.items.slice(0, 6).map((i) => i.id) });
    expect(deleted.ok).toBe(true);
    const repo = new D1MemoryRepo(env.DB);
    const found = await repo.searchLexical({ accountId: "default", namespace: "user", userId }, ["kayak"], {
      limit: 2,
      statuses: ["active"],
      contextWeight: 0.4,
    });
    expect(found.hits.map((h) => h.id).sort()).toEqual(
      imported.items
        .slice(6)
        .map((i) => i.id)
        .sort(),
    );
    expect(found.rows.every((m) => m.status === "active")).toBe(true);
  });

  it("returns the rows of rowsOf after the hits in the same statement: the owner's only, any status, no repeats", async () => {
    const userId = uniqueUser("lex");
    const other = uniqueUser("lex");
    const mine = await importInto(userId, [
      { content: "A kayak trip on the river" },
      { content: "Planted tomatoes in the garden" },
      { content: "Practised the piano for an hour" },
    ]);
    const theirs = await importInto(other, [{ content: "Garden party planning" }]);
    const [kayak, garden, piano] = mine.items.map((i) => i.id);
    const scope = { accountId: "default", namespace: "user", userId, actor: "test" };
    expect((await stubFor(userId).delete(scope, { ids: [piano] })).ok).toBe(true);
    const owner = { accountId: "default", namespace: "user", userId };
    const found = await new D1MemoryRepo(env.DB).searchLexical(owner, ["kayak"], {
      limit: 5,
      statuses: ["active"],
      contextWeight: 0.4,
      rowsOf: [garden, kayak, theirs.items[0].id, piano, "no-such-id"],
    });
    expect(found.hits.map((h) => h.id)).toEqual([kayak]);
    // The hit first, then the other rows asked for (a deleted one too: the caller filters), never another user's.
    expect(found.rows.map((m) => m.id).sort()).toEqual([kayak, garden, piano].sort());
    expect(found.rows[0].id).toBe(kayak);
    expect(found.rows.every((m) => m.userId === userId)).toBe(true);
  });

  it("counts new terms past the statement's parameter limit in statements of their own, and still leaves common ones out", async () => {
    const userId = uniqueUser("lex");
    const total = (await env.DB.prepare("SELECT count(*) AS n FROM memories_fts").first<{ n: number }>())!.n;
    const filler = Array.from({ length: total + 4 }, (_, i) => ({ content: `zqplenty filler ${i}` }));
    const imported = await importInto(userId, [{ content: "zqplenty zqscarce notes" }, ...filler]);
    const searcher = new D1LexicalSearch(env.DB, 1);
    const owner = { accountId: "default", namespace: "user", userId };
    const options = { limit: 5, statuses: ["active" as const], contextWeight: 0.4 };
    // 60 terms: more than one statement may count (100 bound parameters), the common one last.
    const [scarce, plenty] = queryTokens("zqscarce zqplenty");
    const terms = [...Array.from({ length: 58 }, (_, i) => `zqabsent${i}`), scarce, plenty];
    await searcher.search(owner, [scarce], options); // learns N
    expect((await searcher.search(owner, terms, options)).hits.length).toBe(5);
    const second = await searcher.search(owner, terms, options);
    expect(second.hits.map((h) => h.id)).toEqual([imported.items[0].id]);
  });

  it("leaves out terms found in more than half of all rows once it has counted them", async () => {
    const userId = uniqueUser("lex");
    const total = (await env.DB.prepare("SELECT count(*) AS n FROM memories_fts").first<{ n: number }>())!.n;
    // Enough rows holding "zqcommon" that it is in more than half of the whole table.
    const filler = Array.from({ length: total + 4 }, (_, i) => ({ content: `zqcommon filler ${i}` }));
    const imported = await importInto(userId, [{ content: "zqcommon zqrare notes" }, ...filler]);
    const searcher = new D1LexicalSearch(env.DB, 1);
    const owner = { accountId: "default", namespace: "user", userId };
    const options = { limit: 5, statuses: ["active" as const], contextWeight: 0.4 };
    await searcher.search(owner, ["zqrare"], options); // learns N
    const first = await searcher.search(owner, ["zqcommon", "zqrare"], options);
    expect(first.hits.length).toBe(5);
    const second = await searcher.search(owner, ["zqcommon", "zqrare"], options);
    expect(second.hits.map((h) => h.id)).toEqual([imported.items[0].id]);
  });
});
