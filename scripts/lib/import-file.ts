/**
 * @module scripts/lib/import-file
 * Reads a file for `npm run import` and cuts it into request bodies the server accepts, whatever
 * its format (the server converts and validates; src/memory/import/formats). Line formats (JSON
 * Lines, a Hippocampus export, the MCP memory server's memory.jsonl, text / Markdown) are cut
 * between lines; a Hippocampus export's header line starts every request. A whole JSON document
 * (a mem0 / OpenMemory export) is cut between its array items, each request a JSON array.
 * Node built-ins only.
 */
import { chunkLines, MAX_BYTES_PER_REQUEST, MAX_LINES_PER_REQUEST, type SourceLine } from "./import-client.ts";

export const FORMATS = ["hippocampus", "jsonl", "mcp-memory", "mem0", "text"] as const;
export type Format = (typeof FORMATS)[number];

/** The memory items of a whole-file JSON document (array, or `results` / `memories`), else null. */
function documentItems(text: string): unknown[] | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") && !trimmed.startsWith("{")) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(trimmed);
  } catch {
    return null;
  }
  if (Array.isArray(doc)) return doc;
  const o = doc as Record<string, unknown>;
  if (Array.isArray(o?.results)) return o.results;
  if (Array.isArray(o?.memories)) return o.memories;
  return null;
}

function sourceOf(raw: string): string | null {
  try {
    const value = JSON.parse(raw) as { source?: unknown };
    return typeof value?.source === "string" ? value.source : null;
  } catch {
    return null;
  }
}

/** A JSON document's items as JSON-array requests; "line" numbers are item numbers. */
function documentChunks(items: unknown[], fromLine: number, maxLines: number): SourceLine[][] {
  const lines = items
    .map((item, i) => ({ fileLine: i + 1, text: JSON.stringify(item), source: null }))
    .filter((l) => l.fileLine >= fromLine);
  return chunkLines(lines, maxLines, MAX_BYTES_PER_REQUEST - 2);
}

/** Non-blank lines of a line format, with their file line numbers. */
export function fileLines(text: string): SourceLine[] {
  const lines: SourceLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() !== "") lines.push({ fileLine: i + 1, text: raw, source: sourceOf(raw) });
  });
  return lines;
}

export interface PreparedFile {
  /** The file's first line (a Hippocampus export's header), whatever --from-line skips. */
  first: SourceLine | null;
  /** Request bodies: their lines, joined by newlines (or as a JSON array when `document`). */
  chunks: SourceLine[][];
  document: boolean;
  total: number;
}

/** The file cut into requests of at most `maxLines` lines, from line (or item) `fromLine` on. */
export function prepareFile(
  text: string,
  format: Format | undefined,
  fromLine = 1,
  maxLines = MAX_LINES_PER_REQUEST,
): PreparedFile {
  const items = format === undefined || format === "mem0" ? documentItems(text) : null;
  if (items) {
    const chunks = documentChunks(items, fromLine, maxLines);
    return { first: null, chunks, document: true, total: Math.max(0, items.length - fromLine + 1) };
  }
  const all = fileLines(text);
  const lines = all.filter((l) => l.fileLine >= fromLine);
  return { first: all[0] ?? null, chunks: chunkLines(lines, maxLines), document: false, total: lines.length };
}

/** A Hippocampus export: every request after the first starts with the header line again. */
export function withHeader(chunks: SourceLine[][], header: SourceLine | null): SourceLine[][] {
  if (!header) return chunks;
  return chunks.map((c) => (c[0]?.fileLine === header.fileLine ? c : [header, ...c]));
}

export function bodyOf(chunk: SourceLine[], document: boolean): string {
  const texts = chunk.map((l) => l.text);
  return document ? `[${texts.join(",")}]` : texts.join("\n");
}
