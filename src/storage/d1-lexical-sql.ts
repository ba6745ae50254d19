/**
 * @module storage/d1-lexical-sql
 * The SQL text of recall's BM25 (storage/d1-lexical-search.ts), built once per shape and kept.
 *
 * A recall is ONE statement: the ranked hits with their rows, then the rows of the caller's other
 * candidates (`rowsOf`), then one closing row carrying how deep the scored pool was, FTS5's
 * averages record (bm25()'s N) and, on large tables, counts of terms not seen lately — one
 * `UNION ALL`. They used to be four statements of one batch; each statement costs the D1 client
 * its own result handling (and, locally, the simulator its own step), while the subqueries cost
 * SQLite what the separate statements did (docs/benchmarks.md "One statement per recall").
 * The ranked part is the same SELECT as alone (its own subquery: same plan, same order).
 */
import { OWNER_IDS_BOUND } from "./d1-owner-scope";
import { rowsByIdSql } from "./d1-rows-by-id";
import { ftsBlockRange } from "./fts-owner-block";
import { FTS_AVERAGES_SQL } from "./fts5-row-count";
import { MEMORY_COLUMNS, memorySelectList } from "./memory-mapper";

const M = memorySelectList("m");
const list = (n: number, item: string) => Array.from({ length: n }, () => item).join(", ");

/** D1's limit of bound parameters per statement. */
export const MAX_BOUND = 100;

/** Bound parameters: the ranked part (with `statuses` of them), a `rowsOf` chunk, the closing row, a folded term count. */
export const BOUND = {
  ranked: (statuses: number) => 10 + statuses,
  rows: OWNER_IDS_BOUND,
  closing: 4,
  term: 2,
} as const;

/**
 * The owner's `limit` best-scored live memories among the `depth` best-scored FTS rows (binds:
 * contextWeight, match, address, address, depth, address, account, namespace, user, …statuses,
 * limit). The inner query reads only the FTS index (rowid and bm25(), which reads the index and
 * the docsize table): an UNINDEXED column (`memory_id`, `owner`) lives in the content table, whose
 * row also holds the text, so reading it for every matched row cost more than the scoring. The
 * joins then walk the scored rows best first (the subquery's order, no sort; CROSS JOIN keeps
 * SQLite from reordering them) and stop at `limit` live ones (100k rows, SQLite: p95 138 → 56 ms,
 * docs/benchmarks.md "Recall at 100k"). A row is live when its exact owner is this owner and its
 * memory is in a wanted status (deleted and superseded rows keep FTS rows, hence the pool).
 */
function rankedSql(statuses: number): string {
  return `SELECT ${M}, h.s AS bm25_score FROM (
        SELECT rowid AS r, -bm25(memories_fts, 1.0, ?, 0.0) AS s FROM memories_fts
        WHERE memories_fts MATCH ? AND ${ftsBlockRange("rowid", "?")} ORDER BY s DESC LIMIT ?
      ) h CROSS JOIN memories_fts f ON f.rowid = h.r AND f.owner = ?
      CROSS JOIN memories m ON m.id = f.memory_id AND m.account_id = ? AND m.namespace = ? AND m.user_id = ? AND m.status IN (${list(statuses, "?")})
      ORDER BY h.s DESC LIMIT ?`;
}

/**
 * Rows `match` reaches (in the block of the owner whose address is bound after it, when `scoped`),
 * counted no further than the last bound value: a broad match costs no more than that.
 */
export function countSql(scoped: boolean): string {
  const where = scoped ? ` AND ${ftsBlockRange("rowid", "?")}` : "";
  return `SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ?${where} LIMIT ?)`;
}

/** What varies between recall statements: wanted statuses, chunks of `rowsOf` ids, terms counted inline. */
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
 * `averages` (the closing row only, which has a NULL id), `t0…` (term counts, closing row).
 */
export function searchSql(s: Shape): string {
  return cached(`s${s.statuses}.${s.chunks}.${s.terms}`, () => {
    const terms = Array.from({ length: s.terms }, (_, i) => `t${i}`);
    const parts = [
      `SELECT *, NULL AS pool, NULL AS averages${terms.map((t) => `, NULL AS ${t}`).join("")} FROM (${rankedSql(s.statuses)})`,
      // The rows of `rowsOf` (d1-rows-by-id.ts: the owner's rows by id), padded to the hits' columns.
      ...Array.from({ length: s.chunks }, () => rowsByIdSql(`, ${list(3 + s.terms, "NULL")}`)),
      `SELECT ${list(MEMORY_COLUMNS.length + 1, "NULL")}, (${countSql(true)}), (${FTS_AVERAGES_SQL})${terms.map(() => `, (${countSql(false)})`).join("")}`,
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
