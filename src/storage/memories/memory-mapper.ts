/**
 * @module storage/memories/memory-mapper
 * Converts between D1 rows (JSON text columns, snake_case) and domain Memory objects: drizzle's rows
 * (field names) and raw rows of hand-written SQL (column names), whose column list is here too.
 */
import { getTableColumns } from "drizzle-orm";
import type { Memory, MemoryEvent, MemoryStatus, MemoryType } from "../../memory/types";
import { type MemoryEventRow, type MemoryRow, memories, type NewMemoryRow } from "../schema";

/** `memories` columns in schema order: the row field (drizzle's key) and the SQL name. */
export const MEMORY_COLUMNS = Object.entries(getTableColumns(memories)).map(([key, column]) => ({
  key: key as keyof MemoryRow,
  name: column.name,
}));

/** Every `memories` column of the table (or alias) `table`, in schema order, as an SQL select list. */
export function memorySelectList(table: string): string {
  return MEMORY_COLUMNS.map(({ name }) => `${table}."${name}"`).join(", ");
}

function parseStringArray(json: string | null): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function rowToMemory(row: MemoryRow): Memory {
  return {
    ...row,
    tags: parseStringArray(row.tags),
    derivedFrom: parseStringArray(row.derivedFrom),
    memoryType: row.memoryType as MemoryType,
    status: row.status as MemoryStatus,
  };
}

/** A raw `memories` row (SQL column names) as drizzle's row type; the schema has no value conversions. */
export function rawRowToMemory(raw: Record<string, unknown>): Memory {
  // A loop, not Object.fromEntries over pairs: every recall maps up to ~100 rows of 30 columns.
  const row: Record<string, unknown> = {};
  for (const { key, name } of MEMORY_COLUMNS) row[key] = raw[name];
  return rowToMemory(row as MemoryRow);
}

export function memoryToRow(memory: Memory): NewMemoryRow {
  return { ...memory, tags: JSON.stringify(memory.tags), derivedFrom: JSON.stringify(memory.derivedFrom) };
}

/** Column values for an UPDATE from a partial domain patch. */
export function patchToRow(changes: Partial<Memory>): Partial<NewMemoryRow> {
  const { tags, derivedFrom, ...rest } = changes;
  return {
    ...rest,
    ...(tags ? { tags: JSON.stringify(tags) } : {}),
    ...(derivedFrom ? { derivedFrom: JSON.stringify(derivedFrom) } : {}),
  };
}

function parseObject(json: string | null): Partial<Memory> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" ? (value as Partial<Memory>) : null;
  } catch {
    return null;
  }
}

export function rowToEvent(row: MemoryEventRow): MemoryEvent {
  return {
    memoryId: row.memoryId,
    op: row.op as MemoryEvent["op"],
    before: parseObject(row.before),
    after: parseObject(row.after),
    actor: row.actor,
    at: row.at,
  };
}
