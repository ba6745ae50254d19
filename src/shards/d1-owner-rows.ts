/**
 * @module shards/d1-owner-rows
 * One owner's rows as a unit that can cross between shards (docs/shards.md): memories, their
 * history, their FTS rows and their entities, read in keyset pages, copied in D1 batches, checked with a count and
 * a checksum per table, and deleted in bounded chunks. The caller (the owner's Durable Object, on its
 * write queue) guarantees that no write of this owner runs meanwhile.
 *
 * The checksum is the sum modulo 2^64 of the first 8 bytes of each row's SHA-256: independent of
 * order (FTS rows and event ids differ between databases) yet a missing, changed or doubled row
 * changes it. Event ids and FTS rowids are local to a database and are neither copied nor summed
 * (each database gives an owner its own block of FTS rowids).
 */
import { ftsOwnerKey, ownerAddress } from "../memory/owner-address";
import type { Owner } from "../memory/types";
import { jsonChunks } from "../storage/d1-bulk-rows";
import { ftsBlockInsert } from "../storage/lexical/fts-owner-block";

type Cell = string | number | null;

function toCell(value: unknown): Cell {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  throw new Error(`a ${typeof value} cell cannot cross shards as JSON`);
}

/** Rows per read page and per D1 batch of inserts, at most (a shard move's step may ask for fewer). */
export const OWNER_PAGE_ROWS = 200;
/** Rows one DELETE removes; each chunk is its own statement, well inside D1's time per query. */
const DELETE_CHUNK = 500;

type Row = Record<string, unknown>;

interface OwnerTable {
  table: string;
  /** Reads a page after `cursor`; binds the owner args, then the cursor, then the page size. */
  page: string;
  /** The column the page is keyed on, and its start value. */
  cursor: string;
  start: string | number;
  /** Columns local to one database: not copied, not summed. */
  local: string[];
  /** Deletes one chunk of this owner's rows; binds the owner args, then the chunk size. */
  remove: string;
  args(owner: Owner): unknown[];
}

const OWNER_COLUMNS = "account_id = ? AND namespace = ? AND user_id = ?";
const ownerArgs = (o: Owner) => [o.accountId, o.namespace, o.userId];
const FTS_OWNER = "memories_fts MATCH ? AND owner = ?";
const ftsArgs = (o: Owner) => [`{owner_key} : "${ftsOwnerKey(o)}"`, ownerAddress(o)];

export const OWNER_TABLES: OwnerTable[] = [
  {
    table: "memories",
    // `+id`: the owner index finds the rows; without it SQLite may walk the whole primary key.
    page: `SELECT * FROM memories WHERE ${OWNER_COLUMNS} AND +id > ? ORDER BY +id LIMIT ?`,
    cursor: "id",
    start: "",
    local: [],
    remove: `DELETE FROM memories WHERE id IN (SELECT id FROM memories WHERE ${OWNER_COLUMNS} LIMIT ?)`,
    args: ownerArgs,
  },
  {
    table: "memory_events",
    page: `SELECT * FROM memory_events WHERE ${OWNER_COLUMNS} AND id > ? ORDER BY id LIMIT ?`,
    cursor: "id",
    start: 0,
    local: ["id"],
    remove: `DELETE FROM memory_events WHERE id IN (SELECT id FROM memory_events WHERE ${OWNER_COLUMNS} LIMIT ?)`,
    args: ownerArgs,
  },
  {
    table: "memories_fts",
    page: `SELECT rowid AS fts_rowid, tokens, context, owner_key, memory_id, owner FROM memories_fts WHERE ${FTS_OWNER} AND rowid > ? ORDER BY rowid LIMIT ?`,
    cursor: "fts_rowid",
    start: 0,
    local: ["fts_rowid"],
    remove: `DELETE FROM memories_fts WHERE rowid IN (SELECT rowid FROM memories_fts WHERE ${FTS_OWNER} LIMIT ?)`,
    args: ftsArgs,
  },
  // Entities (migration 0012): the entity rows by their id, the link tables by their local id.
  {
    table: "entities",
    page: `SELECT * FROM entities WHERE ${OWNER_COLUMNS} AND id > ? ORDER BY id LIMIT ?`,
    cursor: "id",
    start: "",
    local: [],
    remove: `DELETE FROM entities WHERE rowid IN (SELECT rowid FROM entities WHERE ${OWNER_COLUMNS} LIMIT ?)`,
    args: ownerArgs,
  },
  ...["entity_keys", "entity_mentions", "entity_relations"].map(
    (table): OwnerTable => ({
      table,
      page: `SELECT * FROM ${table} WHERE ${OWNER_COLUMNS} AND id > ? ORDER BY id LIMIT ?`,
      cursor: "id",
      start: 0,
      local: ["id"],
      remove: `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${OWNER_COLUMNS} LIMIT ?)`,
      args: ownerArgs,
    }),
  ),
];

/** Count and checksum of one owner's rows in one table. */
export interface TableSum {
  rows: number;
  sum: string;
}

export type OwnerSums = Record<string, TableSum>;

const MOD = 1n << 64n;

async function rowHash(values: unknown[]): Promise<bigint> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(values)));
  return new DataView(digest).getBigUint64(0);
}

function portable(spec: OwnerTable, row: Row): [string[], unknown[]] {
  const columns = Object.keys(row).filter((c) => !spec.local.includes(c));
  return [columns, columns.map((c) => row[c])];
}

/** Every page of one owner's rows in one table, in cursor order. */
async function* pages(db: D1Database, spec: OwnerTable, owner: Owner): AsyncGenerator<Row[]> {
  let cursor: unknown = spec.start;
  for (;;) {
    const { results } = await db
      .prepare(spec.page)
      .bind(...spec.args(owner), cursor, OWNER_PAGE_ROWS)
      .all<Row>();
    if (results.length === 0) return;
    yield results;
    if (results.length < OWNER_PAGE_ROWS) return;
    cursor = results[results.length - 1][spec.cursor];
  }
}

async function addRows(sum: { rows: number; total: bigint }, spec: OwnerTable, rows: Row[]): Promise<void> {
  for (const row of rows) {
    sum.total = (sum.total + (await rowHash(portable(spec, row)[1]))) % MOD;
    sum.rows++;
  }
}

const finish = (s: { rows: number; total: bigint }): TableSum => ({ rows: s.rows, sum: s.total.toString(16) });

/** Count and checksum of one owner's rows, per table. */
export async function ownerSums(db: D1Database, owner: Owner): Promise<OwnerSums> {
  const out: OwnerSums = {};
  for (const spec of OWNER_TABLES) {
    const sum = { rows: 0, total: 0n };
    for await (const rows of pages(db, spec, owner)) await addRows(sum, spec, rows);
    out[spec.table] = finish(sum);
  }
  return out;
}

/**
 * A page's rows as few statements as possible: each binds its rows as one JSON array
 * (storage/d1-bulk-rows.ts), read back cell by cell with `->>`, so JSON numbers stay numbers and
 * strings stay text (the memory tables hold no blobs). FTS rows take the next rowids of the owner's
 * block in the target database (fts-owner-block.ts), as every FTS insert does.
 */
function insertsOf(db: D1Database, spec: OwnerTable, owner: Owner, rows: Row[]): D1PreparedStatement[] {
  const columns = portable(spec, rows[0])[0];
  const names = columns.map((c) => `"${c}"`).join(", ");
  const chunks = jsonChunks(rows.map((row) => portable(spec, row)[1].map(toCell)));
  const cells = columns.map((_, i) => `value ->> ${i}`).join(", ");
  if (spec.table === "memories_fts") {
    const sql = { columns: names, ordinal: "key + 1", values: cells, from: "FROM json_each(?2) ORDER BY key" };
    return chunks.flatMap((json) => ftsBlockInsert(db, ownerAddress(owner), sql, json));
  }
  const sql = `INSERT INTO ${spec.table} (${names}) SELECT ${cells} FROM json_each(?) ORDER BY key`;
  return chunks.map((json) => db.prepare(sql).bind(json));
}

/** Copies one owner's rows from `source` to `target` page by page; returns the sums of what it read. */
export async function copyOwnerRows(source: D1Database, target: D1Database, owner: Owner): Promise<OwnerSums> {
  let walk = startWalk();
  while (!walkDone(walk)) walk = await walkPage(source, owner, walk, { target });
  return walkSums(walk);
}

/**
 * Where a resumable pass over one owner's rows stands (a shard move's copy or verification, one page
 * per call, across many invocations): the table, the key of the last row read, and the sums so far.
 * Plain data, so it can wait in the Durable Object's storage between invocations.
 */
export interface OwnerWalk {
  table: number;
  cursor: string | number;
  sums: OwnerSums;
}

export const startWalk = (): OwnerWalk => ({ table: 0, cursor: OWNER_TABLES[0].start, sums: {} });

/** True once every table has been read. */
export const walkDone = (walk: OwnerWalk): boolean => walk.table >= OWNER_TABLES.length;

/** Rows a walk has read so far, every table together. */
export const walkRows = (walk: OwnerWalk): number => Object.values(walk.sums).reduce((n, s) => n + s.rows, 0);

/** The sums a walk has added up, with every table present (0 rows for an empty one). */
export function walkSums(walk: OwnerWalk): OwnerSums {
  const out: OwnerSums = {};
  for (const spec of OWNER_TABLES) out[spec.table] = walk.sums[spec.table] ?? { rows: 0, sum: "0" };
  return out;
}

/**
 * One page of a walk over `db`: reads up to `rows` rows (OWNER_PAGE_ROWS unless fewer are asked for)
 * after the cursor, adds them to the sums and, with `target`, inserts them there in one batch.
 * Returns where the walk stands after it (`walkDone` once every table has been read).
 */
export async function walkPage(
  db: D1Database,
  owner: Owner,
  walk: OwnerWalk,
  page: { target?: D1Database; rows?: number } = {},
): Promise<OwnerWalk> {
  const spec = OWNER_TABLES[walk.table];
  const limit = Math.min(OWNER_PAGE_ROWS, page.rows ?? OWNER_PAGE_ROWS);
  const { results } = await db
    .prepare(spec.page)
    .bind(...spec.args(owner), walk.cursor, limit)
    .all<Row>();
  if (results.length > 0 && page.target) await page.target.batch(insertsOf(page.target, spec, owner, results));
  const prior = walk.sums[spec.table] ?? { rows: 0, sum: "0" };
  const sum = { rows: prior.rows, total: BigInt(`0x${prior.sum}`) };
  await addRows(sum, spec, results);
  const sums = { ...walk.sums, [spec.table]: finish(sum) };
  if (results.length === limit)
    return { table: walk.table, cursor: results[results.length - 1][spec.cursor] as string | number, sums };
  const next = walk.table + 1;
  return { table: next, cursor: OWNER_TABLES[next]?.start ?? 0, sums };
}

/**
 * Deletes one chunk of one owner's rows from `db`, tables in reverse copy order (`step` 0 is the
 * last table); returns the table and how many rows went. Fewer than a chunk means that table is empty now.
 */
export async function deleteChunk(
  db: D1Database,
  owner: Owner,
  step: number,
): Promise<{ table: string; removed: number; tableDone: boolean }> {
  const spec = OWNER_TABLES[OWNER_TABLES.length - 1 - step];
  const r = await db
    .prepare(spec.remove)
    .bind(...spec.args(owner), DELETE_CHUNK)
    .run();
  return { table: spec.table, removed: r.meta.changes, tableDone: r.meta.changes < DELETE_CHUNK };
}

/** How many tables an owner's rows span (the steps of `deleteChunk`). */
export const OWNER_TABLE_COUNT = OWNER_TABLES.length;

/**
 * Deletes every row of one owner from `db`, in bounded chunks; returns how many rows went, per table.
 * In reverse copy order, so an interrupted delete or copy always leaves rows `ownersWithRows` finds.
 */
export async function deleteOwnerRows(db: D1Database, owner: Owner): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const spec of [...OWNER_TABLES].reverse()) {
    let removed = 0;
    for (;;) {
      const r = await db
        .prepare(spec.remove)
        .bind(...spec.args(owner), DELETE_CHUNK)
        .run();
      removed += r.meta.changes;
      if (r.meta.changes < DELETE_CHUNK) break;
    }
    out[spec.table] = removed;
  }
  return out;
}

/** True when two sums agree table by table. */
export function sameSums(a: OwnerSums, b: OwnerSums): boolean {
  return OWNER_TABLES.every((s) => a[s.table]?.rows === b[s.table]?.rows && a[s.table]?.sum === b[s.table]?.sum);
}

/** Owners of an account that have memories or history on `db` (leftovers of an interrupted move, or rows to move). */
export async function ownersWithRows(db: D1Database, accountId: string): Promise<Owner[]> {
  const { results } = await db
    .prepare(
      `SELECT DISTINCT namespace, user_id FROM memories WHERE account_id = ?
       UNION SELECT DISTINCT namespace, user_id FROM memory_events WHERE account_id = ?`,
    )
    .bind(accountId, accountId)
    .all<{ namespace: string; user_id: string }>();
  return results.map((r) => ({ accountId, namespace: r.namespace, userId: r.user_id }));
}
