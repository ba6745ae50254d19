/**
 * @module memory/entities/entity-memories
 * One entity as the surfaces show it (memory://entity/{name}, the dashboard's entity page): its
 * detail and the memories that name it, read in one bulk fetch and cut to what the caller's agent
 * may see (a memory private to another agent is left out, as list_memories leaves it out).
 */
import type { MemoryDeps } from "../service-deps";
import type { Memory, Scope } from "../types";
import { visibleTo } from "../write/similar-memories";
import { describeEntity } from "./entity-reads";
import type { EntityDetail } from "./entity-types";

export interface EntityWithMemories {
  entity: EntityDetail;
  /** Active memories naming it that the caller sees, newest first. */
  memories: Memory[];
}

export async function entityWithMemories(
  deps: MemoryDeps,
  scope: Scope,
  nameOrAlias: string,
  limit: number,
): Promise<EntityWithMemories | null> {
  const entity = await describeEntity(deps, scope, nameOrAlias);
  if (!entity) return null;
  const rows = await deps.repo.getMany(scope, entity.memoryIds.slice(0, limit));
  const byId = new Map(rows.map((m) => [m.id, m]));
  const memories = entity.memoryIds
    .map((id) => byId.get(id))
    .filter((m): m is Memory => m !== undefined && m.status === "active" && visibleTo(m, scope.agentId));
  return { entity, memories };
}
