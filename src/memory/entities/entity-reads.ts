/**
 * @module memory/entities/entity-reads
 * The owner's entities as the service answers for them: a page of entities, one entity by name or
 * alias, and an importer's graph stored as given. Inputs parsed with entity-contracts.ts; storage
 * behind the EntityStore port. The views are the caller's: drawn from the active memories its agent
 * may read (scope.agentId; every agent's when the call names none, as list_memories).
 */
import { invalidInput } from "../errors";
import { screenEntities, screenName, screenRelation } from "../import/screen-graph";
import type { MemoryDeps } from "../service-deps";
import type { Owner, Scope } from "../types";
import {
  describeEntityInput,
  type EntityGraphInput,
  entityGraphInput,
  type ListEntitiesInput,
  listEntitiesInput,
} from "./entity-contracts";
import { entityKey } from "./entity-keys";
import type { EntityDetail, EntityGraph, EntityPage, RelationInput } from "./entity-types";
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

export function listEntities(deps: MemoryDeps, scope: Scope, input: ListEntitiesInput): Promise<EntityPage> {
  const options = parsed(listEntitiesInput.safeParse(input));
  return deps.entities.list(scope, {
    limit: options.limit,
    cursor: options.cursor ?? null,
    visibleToAgent: scope.agentId,
  });
}

export function describeEntity(deps: MemoryDeps, scope: Scope, nameOrAlias: string): Promise<EntityDetail | null> {
  const { name } = parsed(describeEntityInput.safeParse({ name: nameOrAlias }));
  return deps.entities.describe(scope, entityKey(name), scope.agentId);
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
