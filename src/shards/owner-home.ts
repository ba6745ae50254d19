/**
 * @module shards/owner-home
 * Where one owner's rows live, as its Durable Object sees them: the shard (resolved on first use),
 * whether writes are held while the owner crosses to another shard (durable/held-writes.ts), and the
 * repository and entity store over that shard. The stores handed to the memory service are stable
 * objects that forward each call to the current shard: a switch (after a move) or a hold changes where
 * the next call goes — including calls already queued — without rebuilding the service or editing its
 * dependencies in place.
 */
import type { EntityStore, MemoryRepo, VectorIndex } from "../memory/ports";
import type { ShardHome } from "./shard-placement";

/**
 * The stores of one shard, as the composition root builds them: the repository, the entity store, and
 * the shard's Vectorize index when each shard has its own (null when the index is not on a shard: the
 * local index lives in the object itself).
 */
export interface ShardStores {
  repo: MemoryRepo;
  entities: EntityStore;
  index: VectorIndex | null;
}

/** How the stores of a shard are built, how a store refuses writes while held, and whether the index follows the shard. */
export interface OwnerHomeDeps {
  storesOf(shard: ShardHome): ShardStores;
  hold(stores: ShardStores): ShardStores;
  indexOnShard: boolean;
}

/** An object of type T whose every property is read from `current()` at the moment of use. */
function forwarding<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      const target = current();
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

export class OwnerHome {
  private shard: ShardHome | null = null;
  private held = false;
  private current: ShardStores | null = null;
  /** What the service holds: forwards to the current shard's stores, held or not. */
  readonly stores: ShardStores;

  constructor(private readonly deps: OwnerHomeDeps) {
    this.stores = {
      repo: forwarding(() => this.active().repo),
      entities: forwarding(() => this.active().entities),
      index: deps.indexOnShard ? forwarding(() => this.active().index as VectorIndex) : null,
    };
  }

  /** The index of the shard the owner is on now (null when the index is not on a shard). */
  shardIndex(): VectorIndex | null {
    return this.active().index;
  }

  get known(): boolean {
    return this.shard !== null;
  }

  get writesHeld(): boolean {
    return this.held;
  }

  /** The owner's shard; only once it is known. */
  home(): ShardHome {
    if (this.shard === null) throw new Error("UserMemory used before its shard was resolved");
    return this.shard;
  }

  /** Sets the shard the first time it is known (later calls keep it: only a switch moves it). */
  settle(shard: ShardHome | null): void {
    this.shard ??= shard;
  }

  /** After a crossing: every next call, queued ones included, goes to the new shard, writes released. */
  switchTo(shard: ShardHome): void {
    this.shard = shard;
    this.held = false;
    this.current = null;
  }

  /** Holds (or releases) writes while the owner's rows cross to another shard. */
  holdWrites(on: boolean): void {
    if (on === this.held) return;
    this.held = on;
    this.current = null;
  }

  private active(): ShardStores {
    if (this.current === null) {
      const plain = this.deps.storesOf(this.home());
      this.current = this.held ? this.deps.hold(plain) : plain;
    }
    return this.current;
  }
}
