/**
 * @module memory/import/formats/raw-record
 * What every import format converts to before validation: candidate import lines (plain objects
 * in the shape of memory/import/import-line.ts) with the line (or item) number they came from, or
 * problems with the file as a whole. Pure.
 */
import type { ImportGraph } from "../import-graph";
import type { LineError } from "../import-line";

export const IMPORT_FORMATS = ["hippocampus", "jsonl", "mcp-memory", "mem0", "text"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface RawRecord {
  /** 1-based line (or array item) number in the file. */
  line: number;
  value: unknown;
}

/** Converted lines, with the entities and relations the format carries beside them (when it does). */
export type Converted = { ok: true; records: RawRecord[]; graph?: ImportGraph } | { ok: false; errors: LineError[] };

/** Non-blank lines with their 1-based numbers. */
export function numberedLines(body: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  body.split(/\r?\n/).forEach((text, i) => {
    if (text.trim() !== "") out.push({ line: i + 1, text });
  });
  return out;
}

/** JSON.parse that reports instead of throwing. */
export function parseJson(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A short, stable fingerprint (FNV-1a, 32 bits) for ids built from long names. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** An id no longer than `max`: kept as is when it fits, else cut and suffixed with its fingerprint. */
export function boundedId(id: string, max: number): string {
  return id.length <= max ? id : `${id.slice(0, max - 9)}#${fingerprint(id)}`;
}

/** A tag within the tag limit, trimmed. */
export function boundedTag(tag: string, max: number): string {
  return tag.trim().slice(0, max).trim();
}
