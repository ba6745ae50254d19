/**
 * @module storage/lexical/fts-owner-block
 * Each owner's FTS rows live in a block of rowids of its own (migrations/0011): rowid = block ×
 * 2^32 + n, the block from `fts_owner_blocks` (one per owner address, given on the owner's first FTS
 * row and kept for good). A search limits FTS5 to the owner's rows with `rowid BETWEEN` the block's
 * ends, which FTS5 turns into a seek in each doclist; ANDing the owner token instead made FTS5 walk
 * a doclist with one entry per row of the owner (at 100k memories in one store about half of what
 * recall's BM25 cost; docs/benchmarks.md "Recall at 100k"). The range only narrows the rows scored:
 * every query still checks each row's exact `owner` (and the memory's owner columns).
 *
 * Every FTS insert names its rowids: `ftsBlockInsert` pairs the statement that gives the owner a
 * block (when it has none) with the insert, so no insert can run without a block.
 */

/** Rowids one block holds. */
export const FTS_BLOCK_SPAN = 2 ** 32;

/** Gives the owner whose address is bound as ?1 a block, unless it has one (the next block number, atomically). */
const ENSURE_BLOCK = `INSERT OR IGNORE INTO fts_owner_blocks (owner, block) SELECT ?1, coalesce(max(block), 0) + 1 FROM fts_owner_blocks`;

/** SQL: the first rowid of the owner's block; `address` is an SQL expression (a bound parameter). */
const blockStart = (address: string) =>
  `(SELECT block * ${FTS_BLOCK_SPAN} FROM fts_owner_blocks WHERE owner = ${address})`;

/**
 * SQL condition: `rowid` (an FTS5 rowid column, e.g. `rowid` or `f.rowid`) is in the block of the
 * owner whose address `address` names. False for an owner without a block (the bounds are NULL).
 */
export function ftsBlockRange(rowid: string, address: string): string {
  return `${rowid} BETWEEN ${blockStart(address)} AND ${blockStart(address)} + ${FTS_BLOCK_SPAN - 1}`;
}

/**
 * SQL: the last rowid in use in the owner's block, or the block's start when it holds no row; new
 * rows take the rowids after it. FTS5 reads it with a seek in its content table (ORDER BY rowid DESC
 * with a rowid range), not a scan of the owner's rows.
 */
function lastRowid(address: string): string {
  const start = blockStart(address);
  return `coalesce((SELECT rowid FROM memories_fts WHERE ${ftsBlockRange("rowid", address)} ORDER BY rowid DESC LIMIT 1), ${start})`;
}

/**
 * The statements adding FTS rows for one owner: the block, then `INSERT INTO memories_fts (rowid,
 * <columns>) SELECT <last rowid> + <ordinal>, <values> <from>`. `ordinal` is an SQL expression
 * numbering the inserted rows 1, 2, … (distinct per row); `?1` in `values`/`from` is the owner's
 * address, which the caller binds first, followed by its own parameters (numbered from ?2).
 */
export function ftsBlockInsert(
  d1: D1Database,
  address: string,
  sql: { columns: string; ordinal: string; values: string; from: string },
  ...binds: unknown[]
): D1PreparedStatement[] {
  const insert = `INSERT INTO memories_fts (rowid, ${sql.columns}) SELECT ${lastRowid("?1")} + ${sql.ordinal}, ${sql.values} ${sql.from}`;
  return [d1.prepare(ENSURE_BLOCK).bind(address), d1.prepare(insert).bind(address, ...binds)];
}
