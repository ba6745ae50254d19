/**
 * @module storage/memory-mapper
 * Converts between D1 rows (JSON text columns, snake_case) and domain Memory objects.
 */
import type { Memory, MemoryEvent, MemoryStatus, MemoryType } from "../memory/types";
import type { MemoryEventRow, MemoryRow, NewMemoryRow } from "./schema";

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
