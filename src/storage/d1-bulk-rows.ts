/**
 * @module storage/d1-bulk-rows
 * Multi-row INSERTs for D1 that stay inside its limits. D1 allows 100 bound parameters per
 * statement, so a memory row (30 columns) fits three to a VALUES list; instead, each statement binds
 * its rows as ONE JSON array (`json_each(?)`), one array of cells per row, read back with `->>`.
 * A batch of 500 rows is then four statements (rows, the owner's FTS block, FTS rows, events)
 * instead of 1,500 (a 1,000-line import sent 3,024:
 * three times the 1,000 queries an invocation may make, if D1 counts a batch's statements one by
 * one). Each JSON parameter is cut below D1's 2,000,000-byte string limit (and its older 1 MB one);
 * the SQL text is fixed and short (limit 100 KB). Rows keep their order (`ORDER BY key`), so event ids do too.
 */
import { getTableColumns } from "drizzle-orm";
import type { MemoryEvent, Owner } from "../memory/types";
import { ftsBlockInsert } from "./lexical/fts-owner-block";
import { ftsRowKeySql } from "./lexical/fts-owner-key";
import { memoryToRow } from "./memories/memory-mapper";
import { memories } from "./schema";

/** Bytes one JSON parameter may hold: under D1's string limit (2 MB; 1 MB before) with headroom. */
export const JSON_PARAM_MAX_BYTES = 900_000;

type Cell = string | number | null;

/** Memory columns in schema order: the domain key (a Memory field) and the SQL name. */
const MEMORY_COLUMNS = Object.entries(getTableColumns(memories)).map(([key, column]) => ({
  key: key as keyof ReturnType<typeof memoryToRow>,
  name: column.name,
}));

const cells = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => `value ->> ${i + offset}`);

const INSERT_MEMORIES = `INSERT INTO memories (${MEMORY_COLUMNS.map((c) => c.name).join(", ")}) SELECT ${cells(
  MEMORY_COLUMNS.length,
).join(", ")} FROM json_each(?1) ORDER BY key`;

/** FTS rows: [memory id, own tokens, neighbour context] in ?2, at the next rowids of the owner's block; ?1 is the owner's address. */
const FTS_INSERT = {
  columns: "tokens, context, owner_key, memory_id, owner",
  ordinal: "key + 1",
  values: `value ->> 1, value ->> 2, ${ftsRowKeySql("?1", "value ->> 0")}, value ->> 0, ?1`,
  from: "FROM json_each(?2) ORDER BY key",
};

/** Events: [memory id, op, before, after, actor, at]; ?1-?3 are the owner's columns. */
const INSERT_EVENTS = `INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, before, after, actor, at) SELECT value ->> 0, ?1, ?2, ?3, ${cells(
  5,
  1,
).join(", ")} FROM json_each(?4) ORDER BY key`;

export interface FtsRow {
  memoryId: string;
  tokens: string;
  context: string;
}

/**
 * JSON arrays of rows (or single values), each under `maxBytes` of UTF-8 (estimated from above: 3
 * bytes per UTF-16 unit). A row over the limit goes alone; D1 then refuses it and the batch fails whole.
 */
export function jsonChunks(rows: (Cell[] | Cell)[], maxBytes = JSON_PARAM_MAX_BYTES): string[] {
  const out: string[] = [];
  let part: string[] = [];
  let bytes = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (part.length > 0 && bytes + text.length * 3 + 1 > maxBytes) {
      out.push(`[${part.join(",")}]`);
      part = [];
      bytes = 2;
    }
    part.push(text);
    bytes += text.length * 3 + 1;
  }
  if (part.length > 0) out.push(`[${part.join(",")}]`);
  return out;
}

/** `items` in consecutive slices of at most `size` (statements or rows per batch). */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Ids as JSON arrays for `IN (SELECT value FROM json_each(?))`: one bound parameter, not one per id. */
export function jsonIdChunks(ids: string[], maxBytes = JSON_PARAM_MAX_BYTES): string[] {
  return jsonChunks([...new Set(ids)], maxBytes);
}

/** A memory's cells in MEMORY_COLUMNS order (tags and derived_from as JSON text, as memoryToRow stores them). */
function memoryCells(row: ReturnType<typeof memoryToRow>): Cell[] {
  return MEMORY_COLUMNS.map(({ key }) => row[key] ?? null);
}

function eventCells(e: MemoryEvent): Cell[] {
  const snap = (s: MemoryEvent["before"]) => (s ? JSON.stringify(s) : null);
  return [e.memoryId, e.op, snap(e.before), snap(e.after), e.actor, e.at];
}

/** Statements inserting `rows` (memories, FTS rows, events) in as few statements as the limits allow. */
export function bulkInserts(
  d1: D1Database,
  owner: Owner,
  address: string,
  rows: { memories: Parameters<typeof memoryToRow>[0][]; fts: FtsRow[]; events: MemoryEvent[] },
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  for (const json of jsonChunks(rows.memories.map((m) => memoryCells(memoryToRow(m)))))
    statements.push(d1.prepare(INSERT_MEMORIES).bind(json));
  for (const json of jsonChunks(rows.fts.map((f) => [f.memoryId, f.tokens, f.context])))
    statements.push(...ftsBlockInsert(d1, address, FTS_INSERT, json));
  for (const json of jsonChunks(rows.events.map(eventCells)))
    statements.push(d1.prepare(INSERT_EVENTS).bind(owner.accountId, owner.namespace, owner.userId, json));
  return statements;
}
