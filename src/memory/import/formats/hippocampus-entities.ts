/**
 * @module memory/import/formats/hippocampus-entities
 * The entity parts of a Hippocampus export, version 2 (docs/export-format.md): a memory line's
 * `entities` (names) and `relations`, and the `entity` and `relation` lines, read into the import's
 * graph (import-graph.ts). zod schemas bound every list and name at the door and hold names and
 * aliases to the label rules; a predicate is normalised as another system's relation type is.
 * Redaction and the injection detector run on the whole graph (import/screen-graph.ts). Pure.
 */
import { z } from "zod";
import { ENTITY_KINDS, ENTITY_LIMITS, type EntityKind, USER } from "../../entities/entity-types";
import { isSafeLabel, LABEL_RULE } from "../../limits";
import { type ImportGraph, relationPredicate } from "../import-graph";
import type { LineError } from "../import-line";

/** Entities and relations one exported memory may carry (a memory names a handful). */
export const STATED_MAX = 64;

/** A name or alias prints on one line of every view: the label rules apply (memory/limits.ts). */
const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(ENTITY_LIMITS.nameMaxChars, `must be at most ${ENTITY_LIMITS.nameMaxChars} characters`)
  .refine(isSafeLabel, LABEL_RULE);

const relation = z.object({
  subject: name.describe(`An entity's name, or "${USER}"`),
  predicate: z.string().trim().min(1).max(200).describe("The relation, such as sister_of"),
  object: name.describe(`An entity's name, or "${USER}"`),
});

const stated = z.object({
  entities: z.array(name).max(STATED_MAX, `at most ${STATED_MAX} entities`).nullable().optional(),
  relations: z.array(relation).max(STATED_MAX, `at most ${STATED_MAX} relations`).optional(),
});

const entityLine = z.object({
  name,
  kind: z.string().max(40).optional(),
  aliases: z.array(name).max(ENTITY_LIMITS.aliasesMax, `at most ${ENTITY_LIMITS.aliasesMax} aliases`).optional(),
});

function problem(line: number, error: z.ZodError): LineError {
  const issue = error.issues[0];
  return { line, field: issue.path.join(".") || null, message: issue.message };
}

const kindOf = (kind: string | undefined): EntityKind =>
  (ENTITY_KINDS as readonly string[]).includes(kind ?? "") ? (kind as EntityKind) : "other";

const asRelation = (r: z.infer<typeof relation>) => ({
  subject: r.subject,
  predicate: relationPredicate(r.predicate),
  object: r.object,
});

/** A memory line's `entities` and `relations` into the graph, under its exported id. */
export function addStated(graph: ImportGraph, line: number, v: Record<string, unknown>): LineError | null {
  const parsed = stated.safeParse({ entities: v.entities, relations: v.relations });
  if (!parsed.success) return problem(line, parsed.error);
  const { entities, relations } = parsed.data;
  // null: the exporting store had not extracted this memory's entities yet; the extraction job will.
  if (entities === null || entities === undefined) return null;
  graph.stated.push({ externalId: v.id as string, entities, relations: (relations ?? []).map(asRelation) });
  return null;
}

export function addEntityLine(graph: ImportGraph, line: number, v: Record<string, unknown>): LineError | null {
  const parsed = entityLine.safeParse({ name: v.name, kind: v.kind, aliases: v.aliases });
  if (!parsed.success) return problem(line, parsed.error);
  const e = parsed.data;
  graph.entities.push({ name: e.name, kind: kindOf(e.kind), aliases: e.aliases ?? [] });
  return null;
}

export function addRelationLine(graph: ImportGraph, line: number, v: Record<string, unknown>): LineError | null {
  const parsed = relation.safeParse({ subject: v.subject, predicate: v.predicate, object: v.object });
  if (!parsed.success) return problem(line, parsed.error);
  graph.relations.push(asRelation(parsed.data));
  return null;
}
