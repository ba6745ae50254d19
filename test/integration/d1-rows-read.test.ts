/**
 * Reads that must not scan the owner's rows, checked with D1's own meta.rows_read (what D1 bills):
 * the write path's exact-duplicate lookup reads the rows with that hash, not the store; recall's BM25
 * reads the rows it ranks best, not every row its words reach; an export page reads its own events, not
 * every event of the owner.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { D1LexicalSearch } from "../../src/storage/lexical/d1-lexical-search";
import { D1ExportReader } from "../../src/storage/memories/d1-export-reader";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { MeteredD1 } from "../../src/storage/metered-d1";
import { RequestTiming, runTimed } from "../../src/timing/request-timing";
import { uniqueUser } from "../helpers/api-keys";

const STORE = 400;

describe("D1 rows read", () => {
  it("a save's duplicate lookup by content hash reads the matching rows only, not the owner's store", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rows-hash"), actor: "test" };
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scope)));
    const lines = Array.from({ length: STORE }, (_, i) => ({
      line: i + 1,
      input: { content: `Planning note ${i}: the team discussed item ${i % 37} and budget line ${i}` },
    }));
    const imported = await stub.import(scope, lines);
    expect(imported.ok).toBe(true);
    const repo = new D1MemoryRepo(new MeteredD1(env.DB));
    const timing = new RequestTiming();
    const found = await runTimed(timing, () => repo.findByHash(scope, "no-such-hash", null));
    expect(found).toBeNull();
    expect(timing.snapshot().d1RowsRead).toBeLessThan(10);
  });

  it("recall's BM25 reads about the rows it ranks, however many rows hold the query's words", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rows-bm25"), actor: "test" };
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scope)));
    const lines = Array.from({ length: 1200 }, (_, i) => ({
      line: i + 1,
      input: { content: `Zqwidely shared zqbroad word in note ${i} about topic ${i % 50}` },
    }));
    expect((await stub.import(scope, lines)).ok).toBe(true);
    const search = new D1LexicalSearch(new MeteredD1(env.DB));
    const options = { limit: 10, statuses: ["active" as const], contextWeight: 0.4 };
    const timing = new RequestTiming();
    const found = await runTimed(timing, () => search.search(scope, ["zqwidely", "zqbroad"], options));
    expect(found.hits).toHaveLength(10);
    // 1,200 rows match both words; the ranked pool is 30 rows, each joined to its FTS row and memory.
    expect(timing.snapshot().d1RowsRead).toBeLessThan(200);
    // On a large table each new term is also checked for being common: one row read per term.
    const pruning = new D1LexicalSearch(new MeteredD1(env.DB), 1);
    await pruning.search(scope, ["zqwidely"], options); // learns N
    const checked = new RequestTiming();
    await runTimed(checked, () => pruning.search(scope, ["zqbroad", "zqwidely", "topic"], options));
    expect(checked.snapshot().d1RowsRead).toBeLessThan(200);
  });

  it("an export page reads its own rows and their events, not every memory and event of the owner", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rows-export"), actor: "test" };
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scope)));
    // One import: the 1,000 memories share one created_at, so only the id orders them.
    const lines = Array.from({ length: 1000 }, (_, i) => ({ line: i + 1, input: { content: `Export note ${i}` } }));
    expect((await stub.import(scope, lines)).ok).toBe(true);
    const reader = new D1ExportReader(new MeteredD1(env.DB));
    const first = await reader.exportPage(scope, { status: "all" }, null, 100);
    const last = first[first.length - 1];
    const timing = new RequestTiming();
    const events = await runTimed(timing, async () => {
      const page = await reader.exportPage(scope, { status: "all" }, { createdAt: last.createdAt, id: last.id }, 100);
      expect(page[0].id > last.id).toBe(true);
      return reader.eventsOf(
        scope,
        page.map((m) => m.id),
      );
    });
    expect([...events.values()].flat()).toHaveLength(100);
    // The page's 100 rows and 100 events (each id looked up once): a few hundred rows, not thousands.
    expect(timing.snapshot().d1RowsRead).toBeLessThan(700);
  });
});
