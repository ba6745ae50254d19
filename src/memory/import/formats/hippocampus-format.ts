/**
 * @module memory/import/formats/hippocampus-format
 * Reads a Hippocampus export (docs/export-format.md, versions 1 and 2) back as import lines: the
 * header line is checked (format, version) and dropped, as is the trailer; each memory keeps its
 * status, agent scope, history and links; version 2's entities and relations (on memory lines and
 * lines of their own) become the import's graph (hippocampus-entities.ts). Ids are remapped on import: the exported id becomes the external_id,
 * and links name the exported ids, which the importer resolves. Fields that a store computes
 * (access counts, index state, summary) are not imported. Pure.
 */
import { EXPORT_FORMAT, IMPORTED_VERSIONS } from "../../export/export-format";
import { emptyGraph, type ImportGraph, withRelationEnds } from "../import-graph";
import type { LineError } from "../import-line";
import { addEntityLine, addRelationLine, addStated } from "./hippocampus-entities";
import { jsonlRecords } from "./jsonl-format";
import { type Converted, isObject, type RawRecord } from "./raw-record";

/** True when the first line is an export header (of any version). */
export function isExportHeader(value: unknown): boolean {
  return isObject(value) && value.format === EXPORT_FORMAT;
}

function toLine(r: Record<string, unknown>): Record<string, unknown> {
  const keep = [
    "content",
    "category",
    "tags",
    "priority",
    "confidence",
    "importance",
    "memory_type",
    "status",
    "agent_id",
    "superseded_by",
    "derived_from",
    "source",
    "created_at",
    "updated_at",
    "deleted_at",
    "event_time",
    "expires_at",
    "history",
  ];
  const line: Record<string, unknown> = { external_id: r.id };
  for (const k of keep) if (r[k] !== null && r[k] !== undefined) line[k] = r[k];
  // An export is of one store: a memory shared there (agent_id null) stays shared here.
  if (r.agent_id === null) line.shared = true;
  return line;
}

export function convertHippocampus(body: string): Converted {
  const { records, errors } = jsonlRecords(body);
  if (errors.length > 0) return { ok: false, errors };
  const [head, ...rest] = records;
  const headerError = (message: string): Converted => ({
    ok: false,
    errors: [{ line: head?.line ?? 1, field: "format", message }],
  });
  if (!head || !isExportHeader(head.value)) return headerError(`the first line must be a ${EXPORT_FORMAT} header`);
  const version = (head.value as Record<string, unknown>).version;
  if (typeof version !== "number" || !IMPORTED_VERSIONS.includes(version))
    return headerError(
      `version ${String(version)} is not supported (this server reads versions ${IMPORTED_VERSIONS.join(" and ")})`,
    );
  const out: RawRecord[] = [];
  const problems: LineError[] = [];
  const graph = emptyGraph();
  for (const r of rest) {
    const problem = readLine(r, version, out, graph);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) return { ok: false, errors: problems };
  return { ok: true, records: out, graph: withRelationEnds(graph) };
}

const LINE_TYPES: Record<number, string> = {
  1: 'must be "memory" (with an id) or "end"',
  2: 'must be "memory" (with an id), "entity", "relation" or "end"',
};

/** One line after the header: a memory into `out`, an entity or relation into `graph`, or a problem. */
function readLine(r: RawRecord, version: number, out: RawRecord[], graph: ImportGraph): LineError | null {
  const v = r.value as Record<string, unknown>;
  if (v.type === "end") return null;
  if (v.type === "memory" && typeof v.id === "string") {
    out.push({ line: r.line, value: toLine(v) });
    return version >= 2 ? addStated(graph, r.line, v) : null;
  }
  if (version >= 2 && v.type === "entity") return addEntityLine(graph, r.line, v);
  if (version >= 2 && v.type === "relation") return addRelationLine(graph, r.line, v);
  return { line: r.line, field: "type", message: LINE_TYPES[version] };
}
