/**
 * @module memory/import/formats/mcp-memory-format
 * The official MCP memory server's knowledge graph file (memory.jsonl, @modelcontextprotocol/
 * server-memory): lines of `{"type":"entity","name","entityType","observations":[…]}` and
 * `{"type":"relation","from","to","relationType"}`. Each observation becomes a memory about its
 * entity ("Alice: speaks Spanish"), each relation a memory of its own ("Alice works at Acme");
 * entity names are kept as tags and the entity type as the category. Ids are derived from the
 * graph, so importing the same file twice skips what is already there. Pure.
 */
import { LIMITS } from "../../limits";
import type { LineError } from "../import-line";
import { jsonlRecords } from "./jsonl-format";
import { boundedId, boundedTag, type Converted, isObject, type RawRecord } from "./raw-record";

/** True when a parsed line looks like a knowledge-graph entity or relation. */
export function isGraphLine(value: unknown): boolean {
  return isObject(value) && (value.type === "entity" || value.type === "relation");
}

const ext = (id: string) => boundedId(id, LIMITS.externalIdMaxChars);
const tag = (name: string) => boundedTag(name, LIMITS.tagMaxChars);
/** "works_at" reads as "works at". */
const words = (relation: string) => relation.replace(/[_-]+/g, " ").trim();

function category(entityType: unknown): string | undefined {
  if (typeof entityType !== "string") return undefined;
  const c = entityType.trim().toLowerCase().slice(0, LIMITS.categoryMaxChars);
  return c === "" ? undefined : c;
}

function entityRecords(line: number, v: Record<string, unknown>): RawRecord[] | LineError {
  if (typeof v.name !== "string" || v.name.trim() === "")
    return { line, field: "name", message: "an entity needs a name" };
  if (!Array.isArray(v.observations))
    return { line, field: "observations", message: "an entity needs an observations array" };
  // Each observation becomes one memory, and a request imports at most importLinesMax of them.
  if (v.observations.length > LIMITS.importLinesMax)
    return {
      line,
      field: "observations",
      message: `at most ${LIMITS.importLinesMax} observations per entity (each becomes one memory; a request imports at most ${LIMITS.importLinesMax}): split the entity`,
    };
  const name = v.name.trim();
  return v.observations.map((o, i) => ({
    line,
    value: {
      content: typeof o === "string" ? `${name}: ${o}` : o,
      tags: [tag(name)],
      category: category(v.entityType),
      external_id: ext(`mcp-memory:entity:${name}:${i}`),
    },
  }));
}

function relationRecord(line: number, v: Record<string, unknown>): RawRecord | LineError {
  for (const field of ["from", "to", "relationType"] as const)
    if (typeof v[field] !== "string" || (v[field] as string).trim() === "")
      return { line, field, message: "a relation needs from, to and relationType" };
  const [from, to, rel] = [v.from as string, v.to as string, v.relationType as string].map((s) => s.trim());
  return {
    line,
    value: {
      content: `${from} ${words(rel)} ${to}`,
      tags: [...new Set([tag(from), tag(to)])],
      category: "relation",
      external_id: ext(`mcp-memory:relation:${from}:${rel}:${to}`),
    },
  };
}

export function convertMcpMemory(body: string): Converted {
  const { records, errors } = jsonlRecords(body);
  const out: RawRecord[] = [];
  for (const { line, value } of records) {
    const v = value as Record<string, unknown>;
    const converted =
      v.type === "entity"
        ? entityRecords(line, v)
        : v.type === "relation"
          ? relationRecord(line, v)
          : ({ line, field: "type", message: 'must be "entity" or "relation"' } as LineError);
    // One by one: spreading a huge array into push() overflows the stack.
    if (Array.isArray(converted)) for (const r of converted) out.push(r);
    else if ("value" in converted) out.push(converted);
    else errors.push(converted);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, records: out };
}
