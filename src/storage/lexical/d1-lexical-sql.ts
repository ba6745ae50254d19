/**
 * @module storage/lexical/d1-lexical-sql
 * The SQL text of recall's BM25 (storage/d1-lexical-search.ts), built once per shape and kept.
 *
 * A recall is ONE statement: the ranked hits with their rows, then the rows of the caller's other
 * candidates (`rowsOf`), then one closing row carrying how deep the scored pool was, FTS5's
 * averages record (bm25()'s N) and, on large tables, one-term scores of terms not seen lately — one
 * `UNION ALL`. They used to be four statements of one batch; each statement costs the D1 client
 * its own result handling (and, locally, the simulator its own step), while the subqueries cost
 * SQLite what the separate statements did (docs/benchmarks.md "One statement per recall").
 * The ranked part is the same SELECT as alone (its own subquery: same plan, same order).
 */
import { OWNER_IDS_BOUND } from "../d1-owner-scope";
import { rowsByIdSql } from "../memories/d1-rows-by-id";
import { MEMORY_COLUMNS, memorySelectList } from "../memories/memory-mapper";
import { ftsBlockRange } from "./fts-owner-block";
import { FTS_AVERAGES_SQL } from "./fts5-row-count";

const M = memorySelectList("m");
const list = (n: number, item: string) => Array.from({ length: n }, () => item).join(", ");

/** D1's limit of bound parameters per statement. */
export const MAX_BOUND = 100;

/** Bound parameters: the ranked part (with `statuses` of them), a `rowsOf` chunk, the closing row, a folded term check. */
export const BOUND = {
  ranked: (statuses: number) => 10 + statuses,
  rows: OWNER_IDS_BOUND,
  closing: 4,
  term: 1,
} as const;

/**
 * The owner's `limit` best-scored live memories among the `depth` best-scored FTS rows (binds:
 * match, rank function, address, address, depth, address, account, namespace, user, …statuses,
 * limit). The inner query ranks with FTS5's own `ORDER BY rank` (the rank function bound as
 * `bm25(…)` with the context weight, fts5RankSpec): FTS5 scores and sorts the matched rows inside
 * the virtual table and hands SQLite only the `depth` best, so the rows D1 counts as read stay
 * `depth` however many rows the query's words reach. Ordering by a `bm25()` column instead made
 * every matched row a row read twice (the scan and the sorter): at 100k memories a two-word query
 * of common words read tens of thousands of rows (docs/benchmarks.md "D1 rows per operation"). The
 * inner query reads only the FTS index (rowid and the score): an UNINDEXED column (`memory_id`,
 * `owner`) lives in the content table, whose row also holds the text. The joins then walk the
 * scored rows best first (the subquery's order, no sort; CROSS JOIN keeps SQLite from reordering
 * them) and stop at `limit` live ones. A row is live when its exact owner is this owner and its
 * memory is in a wanted status (deleted and superseded rows keep FTS rows, hence the pool).
 */
function rankedSql(statuses: number): string {
  return `SELECT ${M}, h.s AS bm25_score FROM (
        SELECT rowid AS r, -rank AS s FROM memories_fts
        WHERE memories_fts MATCH ? AND rank MATCH ? AND ${ftsBlockRange("rowid", "?")} ORDER BY rank LIMIT ?
      ) h CROSS JOIN memories_fts f ON f.rowid = h.r AND f.owner = ?
      CROSS JOIN memories m ON m.id = f.memory_id AND m.account_id = ? AND m.namespace = ? AND m.user_id = ? AND m.status IN (${list(statuses, "?")})
      ORDER BY h.s DESC LIMIT ?`;
}

/**
 * FTS5's rank function for recall: bm25() with the memory's own tokens at 1, the neighbour context
 * at `contextWeight`, the owner key at 0. FTS5 takes it as SQL text of literal arguments.
 */
export function fts5RankSpec(contextWeight: number): string {
  if (!Number.isFinite(contextWeight) || contextWeight < 0)
    throw new RangeError("context weight must be a finite number ≥ 0");
  return `bm25(1.0, ${contextWeight.toFixed(6)}, 0.0)`;
}

/**
 * Rows `match` reaches in the block of the owner whose address is bound after it, counted no
 * further than the last bound value: a broad match costs no more than that.
 */
export function countSql(): string {
  return `SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND ${ftsBlockRange("rowid", "?")} LIMIT ?)`;
}

/**
 * A single term's bm25() on one row that holds it (NULL when none does), over the whole table as
 * bm25()'s idf is: FTS5 counts the term's rows itself, so D1 reads one row. bm25() gives a term in
 * half of all rows or more an idf of 1e-6, which no row's score can lift past COMMON_TERM_SCORE.
 */
export const TERM_SCORE_SQL = "SELECT -bm25(memories_fts) AS n FROM memories_fts WHERE memories_fts MATCH ? LIMIT 1";

/** Below this, a one-term score says the term's idf is bm25()'s floor of 1e-6 (or within a hair of it). */
export const COMMON_TERM_SCORE = 1e-5;

/** What varies between recall statements: wanted statuses, chunks of `rowsOf` ids, terms checked inline. */
export interface Shape {
  statuses: number;
  chunks: number;
  terms: number;
}

const built = new Map<string, string>();

/** The ranked part alone (the deeper look), kept per count of statuses. */
export function rankedOnlySql(statuses: number): string {
  return cached(`r${statuses}`, () => rankedSql(statuses));
}

/**
 * The one statement of a recall. Columns: the memory's, `bm25_score` (hits only), `pool` and
 * `averages` (the closing row only, which has a NULL id), `t0…` (one-term scores, closing row).
 */
export function searchSql(s: Shape): string {
  return cached(`s${s.statuses}.${s.chunks}.${s.terms}`, () => {
    const terms = Array.from({ length: s.terms }, (_, i) => `t${i}`);
    const parts = [
      `SELECT *, NULL AS pool, NULL AS averages${terms.map((t) => `, NULL AS ${t}`).join("")} FROM (${rankedSql(s.statuses)})`,
      // The rows of `rowsOf` (d1-rows-by-id.ts: the owner's rows by id), padded to the hits' columns.
      ...Array.from({ length: s.chunks }, () => rowsByIdSql(`, ${list(3 + s.terms, "NULL")}`)),
      `SELECT ${list(MEMORY_COLUMNS.length + 1, "NULL")}, (${countSql()}), (${FTS_AVERAGES_SQL})${terms.map(() => `, (${TERM_SCORE_SQL})`).join("")}`,
    ];
    return parts.join("\nUNION ALL ");
  });
}

function cached(key: string, build: () => string): string {
  let sql = built.get(key);
  if (sql === undefined) {
    sql = build();
    built.set(key, sql);
  }
  return sql;
}
