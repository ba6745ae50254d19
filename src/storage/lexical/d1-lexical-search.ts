/**
 * @module storage/lexical/d1-lexical-search
 * Recall's BM25 on D1 FTS5: a memory's own tokens plus its neighbour context (weighted), restricted
 * to one owner (the rowid range of its block, fts-owner-block.ts, so FTS5 never scores other users'
 * rows; each row's exact owner is checked as well) and to live rows, with the corpus size bm25() uses as N. The hits come back with
 * their memory rows, and with the rows of the caller's other candidates, in ONE statement (its SQL:
 * d1-lexical-sql.ts), so recall costs one round trip and one statement. FTS5 scores and sorts
 * every row a query matches inside the virtual table (`ORDER BY rank`), so D1 reads only the best
 * `limit × POOL_FACTOR` of them, while CPU still grows with the rows the query's words reach; on
 * large tables terms in half of all rows or more are left out (fts-common-terms.ts) — bm25() gives
 * them an idf of 1e-6, so they change no score, only the cost (docs/benchmarks.md has the measurements).
 */
import { ownerAddress } from "../../memory/owner-address";
import type { LexicalHits, LexicalSearch } from "../../memory/ports";
import { ftsMatchExpression } from "../../memory/text/tokenize";
import type { Owner } from "../../memory/types";
import { jsonIdChunks } from "../d1-bulk-rows";
import { ownerIdsBinds } from "../d1-owner-scope";
import { ROWS_BY_ID_SQL } from "../memories/d1-rows-by-id";
import { rawRowToMemory } from "../memories/memory-mapper";
import {
  BOUND,
  COMMON_TERM_SCORE,
  fts5RankSpec,
  MAX_BOUND,
  rankedOnlySql,
  searchSql,
  TERM_SCORE_SQL,
} from "./d1-lexical-sql";
import { CommonTerms } from "./fts-common-terms";
import { ftsColumnsMatch } from "./fts-owner-key";
import { decodeRowCount, FTS_COUNT_SQL } from "./fts5-row-count";

/** Rows scored per wanted hit before joining `memories`: room for deleted and superseded rows. */
const POOL_FACTOR = 3;

type Row = Record<string, unknown>;

/** Whether a one-term score (TERM_SCORE_SQL; NULL when no row holds the term) says the term is common. */
const isCommonScore = (n: unknown) => n !== null && n !== undefined && Number(n) < COMMON_TERM_SCORE;

/** What one search statement asks for, beside the ranked hits. */
interface Plan {
  /** The owner's address (ownerAddress), bound wherever the SQL names the owner's block or FTS owner. */
  address: string;
  match: string;
  depth: number;
  /** Ids of `rowsOf` as JSON arrays (one bound parameter each). */
  chunks: string[];
  /** Terms checked in the statement itself, and those checked in statements of their own (over the parameter limit). */
  inline: string[];
  apart: string[];
}

/** One term alone, in the columns recall's BM25 reads (its idf is counted over those). */
const termMatch = (t: string) => ftsColumnsMatch(ftsMatchExpression([t]), "tokens context");

/** Below this many rows every query is cheap: no term checks. */
const PRUNE_FROM_ROWS = 20_000;

export class D1LexicalSearch {
  /** N from the previous search (FTS5's averages record); decides whether pruning pays. */
  private lastCorpusSize = 0;
  private readonly common = new CommonTerms();

  constructor(
    private readonly d1: D1Database,
    private readonly pruneFromRows = PRUNE_FROM_ROWS,
  ) {}

  /**
   * BM25 hits with their rows, then the rows of `rowsOf` (the owner's, any status) that are not
   * hits: one statement, one round trip (more statements in the batch only for term checks over
   * the parameter limit).
   */
  async search(owner: Owner, tokens: string[], o: LexicalSearch, rowsOf: string[] = []): Promise<LexicalHits> {
    const now = Date.now();
    const large = this.lastCorpusSize >= this.pruneFromRows;
    const terms = [...new Set(tokens.filter((t) => t.length > 0))].filter(
      (t) => !large || !this.common.isCommon(t, now),
    );
    const chunks = rowsOf.length > 0 ? jsonIdChunks(rowsOf) : [];
    if (terms.length === 0 || o.statuses.length === 0) return this.rowsOnly(owner, chunks);
    const plan = this.plan(owner, terms, o, chunks, large ? terms.filter((t) => this.common.needsCount(t, now)) : []);
    const [main, ...apart] = await this.d1.batch<Row>([
      this.statement(owner, o, plan),
      ...plan.apart.map((t) => this.d1.prepare(TERM_SCORE_SQL).bind(termMatch(t))),
    ]);
    const rows = main.results;
    // The closing row (NULL id, the pool's count) ends the statement; found by its own column.
    const closing = rows.findLast((r) => r.pool !== null) ?? {};
    plan.inline.forEach((t, i) => this.common.record(t, isCommonScore(closing[`t${i}`]), now));
    plan.apart.forEach((t, i) => this.common.record(t, isCommonScore(apart[i].results[0]?.n), now));
    let hits = rows.filter((r) => r.bm25_score !== null && r.id !== null);
    // Rare: most of the best-scored rows were deleted or superseded; look deeper once.
    if (hits.length < o.limit && Number(closing.pool) === plan.depth) hits = await this.deeper(owner, o, plan);
    this.lastCorpusSize = await this.corpusSize(closing.averages);
    const seen = new Set(hits.map((r) => r.id));
    const extra = rows.filter((r) => r.bm25_score === null && r.id !== null && !seen.has(r.id));
    return {
      hits: hits.map((r) => ({ id: String(r.id), score: Number(r.bm25_score) })),
      rows: [...hits, ...extra].map(rawRowToMemory),
      corpusSize: this.lastCorpusSize,
    };
  }

  /** What to ask: terms to check go in the statement while its bound parameters stay within D1's limit. */
  private plan(owner: Owner, terms: string[], o: LexicalSearch, chunks: string[], toCount: string[]): Plan {
    const free = MAX_BOUND - BOUND.ranked(o.statuses.length) - BOUND.rows * chunks.length - BOUND.closing;
    const room = Math.max(Math.floor(free / BOUND.term), 0);
    return {
      address: ownerAddress(owner),
      match: ftsColumnsMatch(ftsMatchExpression(terms), "tokens context"),
      depth: o.limit * POOL_FACTOR,
      chunks,
      inline: toCount.slice(0, room),
      apart: toCount.slice(room),
    };
  }

  /** The one statement (searchSql): its binds in the order its parts name them. */
  private statement(owner: Owner, o: LexicalSearch, p: Plan): D1PreparedStatement {
    const sql = searchSql({ statuses: o.statuses.length, chunks: p.chunks.length, terms: p.inline.length });
    return this.d1
      .prepare(sql)
      .bind(
        ...this.rankedBinds(owner, o, p, p.depth),
        ...p.chunks.flatMap((json) => ownerIdsBinds(json, owner)),
        ...[p.match, p.address, p.address, p.depth],
        ...p.inline.map(termMatch),
      );
  }

  private rankedBinds(owner: Owner, o: LexicalSearch, p: Plan, depth: number): unknown[] {
    const { address, match } = p;
    const rank = fts5RankSpec(o.contextWeight);
    return [match, rank, address, address, depth, address, owner.accountId, owner.namespace, owner.userId]
      .concat(o.statuses)
      .concat([o.limit]);
  }

  /** The ranked hits again, from a pool eight times as deep: a second round trip, only in that rare case. */
  private async deeper(owner: Owner, o: LexicalSearch, p: Plan): Promise<Row[]> {
    const deep = this.d1.prepare(rankedOnlySql(o.statuses.length)).bind(...this.rankedBinds(owner, o, p, p.depth * 8));
    return (await deep.all<Row>()).results;
  }

  /** bm25()'s N from FTS5's averages record; without one (an empty table), the exact count. */
  private async corpusSize(averages: unknown): Promise<number> {
    const n = averages instanceof ArrayBuffer || Array.isArray(averages) ? decodeRowCount(averages) : null;
    return n ?? Number((await this.d1.prepare(FTS_COUNT_SQL).first<{ n: number }>())?.n ?? 0);
  }

  /** No term to search: only the rows of `rowsOf`, and N as last known. */
  private async rowsOnly(owner: Owner, chunks: string[]): Promise<LexicalHits> {
    const read = chunks.map((json) => this.d1.prepare(ROWS_BY_ID_SQL).bind(...ownerIdsBinds(json, owner)));
    const results = read.length > 0 ? await this.d1.batch<Row>(read) : [];
    return { hits: [], rows: results.flatMap((r) => r.results.map(rawRowToMemory)), corpusSize: this.lastCorpusSize };
  }
}
