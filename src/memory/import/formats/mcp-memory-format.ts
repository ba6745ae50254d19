/**
 * @module memory/import/formats/mcp-memory-format
 * The official MCP memory server's knowledge graph file (memory.jsonl, @modelcontextprotocol/
 * server-memory): lines of `{"type":"entity","name","entityType","observations":[…]}` and
 * `{"type":"relation","from","to","relationType"}`. Entities and relations land as real entities
 * and relations (import-graph.ts); each observation becomes a memory about its entity ("Alice:
 * speaks Spanish") that names it, and each relation a memory of its own ("Alice works at Acme")
 * that names both ends and states the relation, so recall finds it by its words too. Entity names are kept as tags and
 * the entity type as the category. Ids are derived from the graph, so importing the same file twice
 * skips what is already there. Pure.
 */
import { ENTITY_LIMITS } from "../../entities/entity-types";
import { isSafeLabel, LABEL_RULE, LIMITS } from "../../limits";
import { emptyGraph, type ImportGraph, relationPredicate } from "../import-graph";
import type { LineError } from "../import-line";
import { entityKind } from "./entity-kind";
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

/** A name the entity store can keep as given: non-empty and within its length (a cut would merge two). */
function nameProblem(line: number, field: string, value: unknown): LineError | null {
  if (typeof value !== "string" || value.trim() === "")
    return {
      line,
      field,
      message: field === "name" ? "an entity needs a name" : "a relation needs from, to and relationType",
    };
  if (value.trim().length > ENTITY_LIMITS.nameMaxChars)
    return { line, field, message: `must be at most ${ENTITY_LIMITS.nameMaxChars} characters` };
  // It prints on one line of every view (memory://entities, the dashboard): the label rules apply.
  if (!isSafeLabel(value)) return { line, field, message: LABEL_RULE };
  return null;
}

interface Accepted {
  records: RawRecord[];
  graph: ImportGraph;
  /** Entities the file defines, and relation ends it names (defined later in the file, or never). */
  named: Set<string>;
  ends: Set<string>;
}

function addEntity(into: Accepted, line: number, v: Record<string, unknown>): LineError | null {
  const bad = nameProblem(line, "name", v.name);
  if (bad) return bad;
  if (!Array.isArray(v.observations))
    return { line, field: "observations", message: "an entity needs an observations array" };
  // Each observation becomes one memory, and a request imports at most importLinesMax of them.
  if (v.observations.length > LIMITS.importLinesMax)
    return {
      line,
      field: "observations",
      message: `at most ${LIMITS.importLinesMax} observations per entity (each becomes one memory; a request imports at most ${LIMITS.importLinesMax}): split the entity`,
    };
  const name = (v.name as string).trim();
  into.named.add(name);
  into.ends.delete(name);
  into.graph.entities.push({ name, kind: entityKind(v.entityType), aliases: [] });
  v.observations.forEach((o, i) => {
    const externalId = ext(`mcp-memory:entity:${name}:${i}`);
    into.graph.stated.push({ externalId, entities: [name], relations: [] });
    into.records.push({
      line,
      value: {
        content: typeof o === "string" ? `${name}: ${o}` : o,
        tags: [tag(name)],
        category: category(v.entityType),
        external_id: externalId,
      },
    });
  });
  return null;
}

function addRelation(into: Accepted, line: number, v: Record<string, unknown>): LineError | null {
  for (const field of ["from", "to", "relationType"] as const) {
    const bad = nameProblem(line, field, v[field]);
    if (bad) return bad;
  }
  const [from, to, rel] = [v.from as string, v.to as string, v.relationType as string].map((s) => s.trim());
  const externalId = ext(`mcp-memory:relation:${from}:${rel}:${to}`);
  // The relation's own memory states it, so it leaves with that memory (delete) and comes back with it.
  const relation = { subject: from, predicate: relationPredicate(rel), object: to };
  into.graph.stated.push({ externalId, entities: [...new Set([from, to])], relations: [relation] });
  if (!into.named.has(from)) into.ends.add(from);
  if (!into.named.has(to)) into.ends.add(to);
  into.records.push({
    line,
    value: {
      content: `${from} ${words(rel)} ${to}`,
      tags: [...new Set([tag(from), tag(to)])],
      category: "relation",
      external_id: externalId,
    },
  });
  return null;
}

export function convertMcpMemory(body: string): Converted {
  const { records, errors } = jsonlRecords(body);
  const into: Accepted = { records: [], graph: emptyGraph(), named: new Set(), ends: new Set() };
  for (const { line, value } of records) {
    const v = value as Record<string, unknown>;
    const problem =
      v.type === "entity"
        ? addEntity(into, line, v)
        : v.type === "relation"
          ? addRelation(into, line, v)
          : ({ line, field: "type", message: 'must be "entity" or "relation"' } as LineError);
    if (problem) errors.push(problem);
  }
  if (errors.length > 0) return { ok: false, errors };
  // A relation end the file never defines is an entity of kind `other` (a known kind is kept).
  for (const name of into.ends) into.graph.entities.push({ name, kind: "other", aliases: [] });
  return { ok: true, records: into.records, graph: into.graph };
}
