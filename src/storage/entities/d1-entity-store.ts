/**
 * @module storage/entities/d1-entity-store
 * EntityStore on D1: the port's one class over one shard, delegating to the entity writes
 * (d1-entity-writes.ts) and reads (d1-entity-reads.ts).
 */
import type { EntityGraph, EntityListOptions, MemoryEntities } from "../../memory/entities/entity-types";
import type { EntityStore } from "../../memory/ports";
import type { Owner } from "../../memory/types";
import { aliasNames } from "./d1-alias-names";
import * as reads from "./d1-entity-reads";
import * as writes from "./d1-entity-writes";

export class D1EntityStore implements EntityStore {
  constructor(private readonly d1: D1Database) {}

  replaceMentions(owner: Owner, items: MemoryEntities[], at: number) {
    return writes.replaceMentions(this.d1, owner, items, at);
  }

  storeGraph(owner: Owner, graph: EntityGraph, at: number) {
    return writes.storeGraph(this.d1, owner, graph, at);
  }

  forgetMemories(owner: Owner, memoryIds: string[]) {
    return writes.forgetMemories(this.d1, owner, memoryIds);
  }

  list(owner: Owner, options: EntityListOptions) {
    return reads.listEntities(this.d1, owner, options);
  }

  describe(owner: Owner, key: string, visibleToAgent?: string) {
    return reads.describeEntity(this.d1, owner, key, visibleToAgent);
  }

  memoriesNaming(owner: Owner, keys: string[], limit: number) {
    return reads.memoriesNaming(this.d1, owner, keys, limit);
  }

  sharedEntityMemories(owner: Owner, memoryIds: string[], limit: number) {
    return reads.sharedEntityMemories(this.d1, owner, memoryIds, limit);
  }

  aliasNames(owner: Owner, keys: string[], limit: number) {
    return aliasNames(this.d1, owner, keys, limit);
  }

  relationsOf(owner: Owner, entityIds: string[], limit: number, visibleToAgent?: string) {
    return reads.relationsOf(this.d1, owner, entityIds, limit, visibleToAgent);
  }
}
