/**
 * @module shards/shard-lookup
 * Which D1 database holds an owner's rows: every shard MEMORY_SHARDS lists, one by name, and the
 * owner's own (placed on first use, refused for reads while its account moves). The one home of
 * shard lookup for the Worker, the Durable Object and the jobs; placement itself is shard-placement.ts.
 */
import type { Config } from "../config";
import type { Env } from "../env";
import type { Owner } from "../memory/types";
import {
  readableOwnerShard,
  resolveOwnerShard,
  type ShardHome,
  type ShardSettings,
  shardDatabase,
} from "./shard-placement";

export function shardSettings(config: Config): ShardSettings {
  return { shards: config.MEMORY_SHARDS, weights: config.SHARD_WEIGHTS };
}

/** Every shard that holds memory rows, in MEMORY_SHARDS order (the home database first). */
export function memoryShards(env: Env, config: Config): ShardHome[] {
  return config.MEMORY_SHARDS.map((binding) => ({ binding, db: shardDatabase(env, binding) }));
}

/** One shard by binding name; only a shard MEMORY_SHARDS lists. */
export function memoryShard(env: Env, config: Config, binding: string): ShardHome {
  if (!config.MEMORY_SHARDS.includes(binding)) throw new Error(`"${binding}" is not in MEMORY_SHARDS`);
  return { binding, db: shardDatabase(env, binding) };
}

/** With one shard there is nothing to look up: every owner is on the home database. */
export function onlyShard(env: Env, config: Config): ShardHome | null {
  return config.MEMORY_SHARDS.length === 1 ? memoryShard(env, config, config.MEMORY_SHARDS[0]) : null;
}

/** The shard an owner's rows are on (registering the owner, and placing its account, on first use). */
export async function ownerShard(env: Env, config: Config, owner: Owner): Promise<ShardHome> {
  return onlyShard(env, config) ?? resolveOwnerShard(env, shardSettings(config), owner, Date.now());
}

/** The shard an export reads an owner's rows from (refused while the owner's account moves). */
export async function ownerShardForRead(env: Env, config: Config, owner: Owner): Promise<ShardHome> {
  return onlyShard(env, config) ?? readableOwnerShard(env, shardSettings(config), owner);
}
