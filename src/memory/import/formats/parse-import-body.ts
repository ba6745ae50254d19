/**
 * @module memory/import/formats/parse-import-body
 * An import body in any supported format → validated import lines. The format is named by the
 * caller or detected from the body: a Hippocampus export header on the first line; knowledge-graph
 * lines of the MCP memory server; a JSON document holding mem0 memories; JSON Lines of import
 * lines; anything else is plain text or Markdown. Whatever the format, every line goes through the
 * same validation, and one bad line rejects the whole body. Pure.
 */
import { graphBound, graphIsEmpty, type ImportGraph } from "../import-graph";
import { type ParsedImport, parseImportLines, reject, validateRecords } from "../parse-import-lines";
import { convertHippocampus, isExportHeader } from "./hippocampus-format";
import { convertJsonl } from "./jsonl-format";
import { convertMcpMemory, isGraphLine } from "./mcp-memory-format";
import { convertMem0, mem0Items } from "./mem0-format";
import { type Converted, type ImportFormat, isObject, numberedLines, parseJson } from "./raw-record";
import { convertText } from "./text-format";

const CONVERTERS: Record<ImportFormat, (body: string) => Converted> = {
  hippocampus: convertHippocampus,
  jsonl: convertJsonl,
  "mcp-memory": convertMcpMemory,
  mem0: convertMem0,
  text: convertText,
};

export function detectFormat(body: string): ImportFormat {
  const trimmed = body.trimStart();
  // A whole JSON document (not JSON Lines): only mem0 exports are that.
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    const whole = parseJson(trimmed);
    if (whole.value !== undefined && mem0Items(whole.value)) return "mem0";
  }
  const lines = numberedLines(body);
  const first = lines[0];
  if (!first) return "jsonl";
  const { value } = parseJson(first.text);
  if (value === undefined) return trimmed.startsWith("{") || mostlyJsonObjects(lines) ? "jsonl" : "text";
  if (isExportHeader(value)) return "hippocampus";
  if (isGraphLine(value)) return "mcp-memory";
  return (typeof value === "object" && value !== null) || mostlyJsonObjects(lines) ? "jsonl" : "text";
}

/**
 * True when at least half of the non-blank lines are JSON objects: JSON Lines whose first line is
 * broken, which must be reported line by line, not stored as text (found by the reliability run).
 */
function mostlyJsonObjects(lines: { text: string }[]): boolean {
  let objects = 0;
  for (const l of lines) if (l.text.trimStart().startsWith("{") && isObject(parseJson(l.text).value)) objects++;
  return objects * 2 >= lines.length;
}

/** Validated lines, and the entities and relations that come with them (graph formats only). */
export type ParsedBody = (ParsedImport & { format: ImportFormat }) & { graph?: ImportGraph };

export function parseImportBody(body: string, format?: ImportFormat): ParsedBody {
  const chosen = format ?? detectFormat(body);
  // Plain JSON Lines reports bad JSON and bad fields together, line by line.
  if (chosen === "jsonl") return { ...parseImportLines(body), format: chosen };
  const converted = CONVERTERS[chosen](body);
  if (!converted.ok)
    return { ...reject(converted.errors, new Set(converted.errors.map((e) => e.line)).size), format: chosen };
  const graph = converted.graph;
  if (graphIsEmpty(graph)) return { ...validateRecords(converted.records), format: chosen };
  const tooBig = graphBound(graph!);
  if (tooBig) return { ...reject([tooBig], 0), format: chosen };
  // Entities and relations without any observation are an import too.
  if (converted.records.length === 0) return { ok: true, lines: [], graph, format: chosen };
  return { ...validateRecords(converted.records), graph, format: chosen };
}
