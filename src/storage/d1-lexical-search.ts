/**
 * @module storage/d1-lexical-search
 * Recall's BM25 on D1 FTS5: a memory's own tokens plus its neighbour context (weighted), restricted
 * to one owner (the rowid range of its block, fts-owner-block.ts, so FTS5 never scores other users'
 * rows; each row's exact owner is checked as well) and to live rows, with the corpus size bm25() uses as N. The hits come back with
 * their memory rows from the same query, so recall saves a round trip. FTS5 scores every row a
 * query matches before it can sort, so cost grows with the rows the query's words reach; on large
 * tables terms in more than half of all rows are left out (fts-common-terms.ts) — bm25() gives them
 * an idf of 1e-6, so they change no score, only the cost (docs/benchmarks.md has the measurements).
 */
import { getTableColumns } from "drizzle-orm";
import { ownerAddress } from "../memory/owner-address";
import type { LexicalHits, LexicalSearch } from "../memory/ports";
import { ftsMatchExpression } from "../memory/text/tokenize";
import type { Memory, Owner } from "../memory/types";
import { CommonTerms } from "./fts-common-terms";
import { ftsBlockRange } from "./fts-owner-block";
import { ftsColumnsMatch } from "./fts-owner-key";
import { decodeRowCount, FTS_AVERAGES_SQL, FTS_COUNT_SQL } from "./fts5-row-count";
import { rowToMemory } from "./memory-mapper";
import { type MemoryRow, memories } from "./schema";

/** Rows scored per wanted hit before joining `memories`: room for deleted and superseded rows. */
const POOL_FACTOR = 3;

type Rows = D1Result<Record<string, unknown>>;

/** The `n` of a `SELECT count(*) AS n` result. */
const countOf = (r: D1Result<unknown>) => Number((r.results[0] as { n?: number } | undefined)?.n ?? 0);

/** Below this many rows every query is cheap: no term counting. */
const PRUNE_FROM_ROWS = 20_000;

const COLUMNS = Object.entries(getTableColumns(memories)).map(([key, column]) => [key, column.name] as const);

/** A raw `memories` row (SQL column names) as drizzle's row type; the schema has no value conversions. */
export function rawRowToMemory(raw: Record<string, unknown>): Memory {
  return rowToMemory(Object.fromEntries(COLUMNS.map(([key, name]) => [key, raw[name]])) as MemoryRow);
}

export class D1LexicalSearch {
  /** N from the previous search (FTS5's averages record); decides whether pruning pays. */
  private lastCorpusSize = 0;
  private readonly common = new CommonTerms();

  constructor(
    private readonly d1: D1Database,
    private readonly pruneFromRows = PRUNE_FROM_ROWS,
  ) {}

  /**
   * BM25 hits with their rows. `alsoRead` are the caller's statements reading more `memories` rows
   * (raw rows, owner checked by the caller): they go in the same batch, and their rows follow the hits'.
   */
  async search(
    owner: Owner,
    tokens: string[],
    o: LexicalSearch,
    alsoRead: D1PreparedStatement[] = [],
  ): Promise<LexicalHits> {
    const now = Date.now();
    const large = this.lastCorpusSize >= this.pruneFromRows;
    const terms = [...new Set(tokens.filter((t) => t.length > 0))].filter(
      (t) => !large || !this.common.isCommon(t, now),
    );
    if (terms.length === 0 || o.statuses.length === 0) {
      const extra = alsoRead.length > 0 ? await this.d1.batch<Record<string, unknown>>(alsoRead) : [];
      return { hits: [], rows: extra.flatMap((r) => r.results.map(rawRowToMemory)), corpusSize: this.lastCorpusSize };
    }
    const match = ftsColumnsMatch(ftsMatchExpression(terms), "tokens context");
    const cap = Math.floor(this.lastCorpusSize / 2);
    const toCount = large ? terms.filter((t) => this.common.needsCount(t, now)) : [];
    const depth = o.limit * POOL_FACTOR;
    // One round trip: the search, how deep its pool was, bm25()'s N (the whole table's row count),
    // counts of new terms, the caller's reads.
    const [first, pool, averages, ...rest] = (await this.d1.batch([
      this.ranked(owner, match, o, depth),
      this.countUpTo(match, depth, ownerAddress(owner)),
      this.d1.prepare(FTS_AVERAGES_SQL),
      ...toCount.map((t) => this.countUpTo(ftsMatchExpression([t]), cap + 1)),
      ...alsoRead,
    ])) as [Rows, D1Result<{ n: number }>, D1Result<{ block: ArrayBuffer | number[] }>, ...D1Result<unknown>[]];
    toCount.forEach((t, i) => this.common.record(t, countOf(rest[i]) > cap, now));
    let rows = first.results;
    // Rare: most of the best-scored rows were deleted or superseded; look deeper once.
    if (rows.length < o.limit && countOf(pool) === depth)
      rows = (await this.ranked(owner, match, o, depth * 8).all<Record<string, unknown>>()).results;
    const block = averages.results[0]?.block;
    this.lastCorpusSize =
      (block ? decodeRowCount(block) : null) ??
      Number((await this.d1.prepare(FTS_COUNT_SQL).first<{ n: number }>())?.n ?? 0);
    const extra = (rest.slice(toCount.length) as Rows[]).flatMap((r) => r.results);
    return {
      hits: rows.map((r) => ({ id: String(r.id), score: Number(r.bm25_score) })),
      rows: [...rows, ...extra].map(rawRowToMemory),
      corpusSize: this.lastCorpusSize,
    };
  }

  /**
   * The owner's `o.limit` best-scored live memories among the `depth` best-scored FTS rows, with
   * their scores. The inner query reads only the FTS index (rowid and bm25(), which reads the index
   * and the docsize table): an UNINDEXED column (`memory_id`, `owner`) lives in the content table,
   * whose row also holds the text, so reading it for every matched row cost more than the scoring.
   * The joins then walk the scored rows best first (the subquery's order, no sort; CROSS JOIN keeps
   * SQLite from reordering them) and stop at `o.limit` live ones (100k rows, SQLite: p95 138 → 56
   * ms, docs/benchmarks.md "Recall at 100k"). A row is live when its exact owner is this owner and
   * its memory is in a wanted status (deleted and superseded rows keep FTS rows, hence the pool).
   */
  private ranked(owner: Owner, match: string, o: LexicalSearch, depth: number): D1PreparedStatement {
    return this.d1
      .prepare(`
      SELECT m.*, h.s AS bm25_score FROM (
        SELECT rowid AS r, -bm25(memories_fts, 1.0, ?, 0.0) AS s FROM memories_fts
        WHERE memories_fts MATCH ? AND ${ftsBlockRange("rowid", "?")} ORDER BY s DESC LIMIT ?
      ) h CROSS JOIN memories_fts f ON f.rowid = h.r AND f.owner = ?
      CROSS JOIN memories m ON m.id = f.memory_id AND m.account_id = ? AND m.namespace = ? AND m.user_id = ? AND m.status IN (${o.statuses.map(() => "?").join(", ")})
      ORDER BY h.s DESC LIMIT ?`)
      .bind(
        o.contextWeight,
        match,
        ownerAddress(owner),
        ownerAddress(owner),
        depth,
        ownerAddress(owner),
        owner.accountId,
        owner.namespace,
        owner.userId,
        ...o.statuses,
        o.limit,
      );
  }

  /**
   * Rows `match` reaches (in the block of the owner `address`, when given), counted no further than
   * `limit`: a broad match costs no more than that.
   */
  private countUpTo(match: string, limit: number, address?: string): D1PreparedStatement {
    const where = address === undefined ? "" : ` AND ${ftsBlockRange("rowid", "?")}`;
    return this.d1
      .prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?${where} LIMIT ?)`)
      .bind(match, ...(address === undefined ? [] : [address, address]), limit);
  }
}
