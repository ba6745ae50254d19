/**
 * @module storage/lexical/fts5-row-count
 * The row count FTS5's bm25() itself uses as N, read in O(1). FTS5 keeps it in its "averages"
 * record (row id 1 of the `<table>_data` shadow table: a varint row count followed by one varint
 * token total per column), while `SELECT count(*)` scans the whole table — 17 ms at 10k rows,
 * measured, on every recall. Recall only needs N to scale BM25 (fuse-scores.ts: maxIdf).
 */

/** The averages record's first SQLite varint (big-endian 7-bit groups; a 9th byte carries 8 bits). */
export function decodeRowCount(block: ArrayBuffer | ArrayLike<number>): number | null {
  const bytes = block instanceof ArrayBuffer ? new Uint8Array(block) : Uint8Array.from(block as ArrayLike<number>);
  let value = 0;
  for (let i = 0; i < Math.min(bytes.length, 9); i++) {
    const byte = bytes[i];
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return value;
  }
  return null;
}

/** SQL for the averages record of the memories_fts table. */
export const FTS_AVERAGES_SQL = "SELECT block FROM memories_fts_data WHERE id = 1";
/** Fallback when the record cannot be read: exact, but a full scan. */
export const FTS_COUNT_SQL = "SELECT count(*) AS n FROM memories_fts";
