/**
 * @module memory/entities/entity-reads
 * The owner's entities as the service answers for them: a page of entities, one entity by name or
 * alias, and an importer's graph stored as given. Inputs parsed with entity-contracts.ts; storage
 * behind the EntityStore port. The views are the caller's: drawn from the active memories its agent
 * may read (scope.agentId; every agent's when the call names none, as list_memories), and showing no
 * name, alias or predicate that breaks the label rules, holds a secret or reads as an instruction.
 */
import { invalidInput } from "../errors";
import { screenEntities, screenName, screenRelation } from "../import/screen-graph";
import { isSafeLabel } from "../limits";
import type { MemoryDeps } from "../service-deps";
import type { Owner, Scope } from "../types";
import { detectInjection } from "../write/injection-detector";
import { redactText } from "../write/redact-secrets";
import {
  describeEntityInput,
  type EntityGraphInput,
  entityGraphInput,
  type ListEntitiesInput,
  listEntitiesInput,
} from "./entity-contracts";
import { entityKey } from "./entity-keys";
import type { Entity, EntityDetail, EntityGraph, EntityPage, EntityRelationView, RelationInput } from "./entity-types";
import { USER } from "./entity-types";

function parsed<T>(
  result:
    | { success: true; data: T }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): T {
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw invalidInput(issue.path.map(String).join(".") || "input", issue.message);
}

/**
 * Whether a stored name, alias or predicate may be shown as it is: it passes the label rules, holds
 * no secret and does not read as an instruction. Every write path screens these before storing them;
 * this holds for rows an older import stored unscreened, so no view shows one raw.
 */
export function readableLabel(text: string): boolean {
  return isSafeLabel(text) && redactText(text) === text && !detectInjection(text).suspicious;
}

/** The entity as a view may show it: null when its name is not readable, else without unreadable aliases. */
function readableEntity<T extends Entity>(e: T): T | null {
  if (!readableLabel(e.name)) return null;
  const aliases = e.aliases.filter(readableLabel);
  return aliases.length === e.aliases.length ? e : { ...e, aliases };
}

/** Relations whose predicate and both ends may be shown (the user's side always may). */
export function readableRelations(relations: EntityRelationView[]): EntityRelationView[] {
  const end = (id: string, name: string) => id === USER || readableLabel(name);
  return relations.filter(
    (r) => readableLabel(r.predicate) && end(r.subjectId, r.subjectName) && end(r.objectId, r.objectName),
  );
}

export async function listEntities(deps: MemoryDeps, scope: Scope, input: ListEntitiesInput): Promise<EntityPage> {
  const options = parsed(listEntitiesInput.safeParse(input));
  const page = await deps.entities.list(scope, {
    limit: options.limit,
    cursor: options.cursor ?? null,
    visibleToAgent: scope.agentId,
  });
  return { ...page, entities: page.entities.map(readableEntity).filter((e): e is Entity => e !== null) };
}

export async function describeEntity(
  deps: MemoryDeps,
  scope: Scope,
  nameOrAlias: string,
): Promise<EntityDetail | null> {
  const { name } = parsed(describeEntityInput.safeParse({ name: nameOrAlias }));
  const found = await deps.entities.describe(scope, entityKey(name), scope.agentId);
  const entity = found && readableEntity(found);
  return entity && { ...entity, relations: readableRelations(entity.relations) };
}

/** Every relation end and mention names an entity of the graph (or the user): a typo is an error, not a new entity. */
function checkNames(graph: EntityGraph): void {
  const known = new Set(graph.entities.map((e) => entityKey(e.name)));
  graph.relations.forEach((r, i) => {
    for (const side of ["subject", "object"] as const)
      if (r[side] !== USER && !known.has(entityKey(r[side])))
        throw invalidInput(`relations.${i}.${side}`, "names no entity of `entities`");
  });
  graph.mentions.forEach((m, i) => {
    if (!known.has(entityKey(m.entity))) throw invalidInput(`mentions.${i}.entity`, "names no entity of `entities`");
  });
}

/**
 * Stores another system's graph for the owner; mentions of memories the owner does not have are
 * dropped, and the graph is screened as an import's is (import/screen-graph.ts): names redacted, an
 * entity, alias or relation that reads as an instruction left out and counted in `dropped`.
 */
export async function storeEntities(
  deps: MemoryDeps,
  owner: Owner,
  input: EntityGraphInput,
): Promise<{ entities: number; relations: number; mentions: number; dropped: number }> {
  const given = parsed(entityGraphInput.safeParse(input));
  checkNames(given);
  const { kept, droppedNames, dropped: droppedEntities } = screenEntities(given.entities);
  const relations = given.relations
    .map((r) => screenRelation(r, droppedNames))
    .filter((r): r is RelationInput => r !== null);
  const graph: EntityGraph = {
    entities: kept,
    relations,
    mentions: given.mentions
      .filter((m) => !droppedNames.has(m.entity))
      .map((m) => ({ ...m, entity: screenName(m.entity) ?? m.entity })),
  };
  const ids = [...new Set(graph.mentions.map((m) => m.memoryId))];
  const owned = new Set((await deps.repo.getMany(owner, ids)).map((m) => m.id));
  const mentions = graph.mentions.filter((m) => owned.has(m.memoryId));
  await deps.entities.storeGraph(owner, { ...graph, mentions }, deps.clock.now());
  return {
    entities: graph.entities.length,
    relations: graph.relations.length,
    mentions: mentions.length,
    dropped: droppedEntities + given.relations.length - relations.length,
  };
}
