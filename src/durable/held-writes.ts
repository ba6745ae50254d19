/**
 * @module durable/held-writes
 * An owner's repository while its rows cross to another shard (durable/shard-relocation.ts): reads
 * go on from the source, writes are refused with a retryable `conflict` (the copy would miss them),
 * and access bookkeeping (recall counts, index marks) is skipped, since the target gets the rows as
 * they were copied and the index repair marks them again. Released at the switch.
 */
import { MemoryError } from "../memory/errors";
import type { EntityStore, MemoryRepo } from "../memory/ports";

const REFUSED = new Set<keyof MemoryRepo>(["write", "purge", "setLinks", "setDecayedImportance", "markConsolidated"]);
const SKIPPED = new Set<keyof MemoryRepo>(["touch", "markIndexed"]);

export const MOVING_MESSAGE =
  "this user's memories are moving to another shard; writes are held until they have crossed (seconds to minutes): retry shortly";

export function heldWrites(repo: MemoryRepo): MemoryRepo {
  return new Proxy(repo, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (REFUSED.has(prop as keyof MemoryRepo))
        return () => Promise.reject(new MemoryError("conflict", MOVING_MESSAGE));
      if (SKIPPED.has(prop as keyof MemoryRepo)) return () => Promise.resolve();
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

const ENTITY_WRITES = new Set<keyof EntityStore>(["replaceMentions", "storeGraph", "forgetMemories"]);

/** The owner's entity store while its rows cross: reads from the source, writes refused like the repository's. */
export function heldEntityWrites(store: EntityStore): EntityStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      if (ENTITY_WRITES.has(prop as keyof EntityStore))
        return () => Promise.reject(new MemoryError("conflict", MOVING_MESSAGE));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
