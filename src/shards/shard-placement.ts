/**
 * @module shards/shard-placement
 * Which D1 database holds an owner's rows (docs/shards.md). Bindings are named in config
 * (MEMORY_SHARDS) and looked up here by name; a new account goes to the shard with the most room:
 * the least measured bytes per unit of weight (SHARD_WEIGHTS, default 1; 0 closes a shard to new
 * accounts). Sizes are D1's own figure (`meta.size_after`), measured at most once a minute per isolate.
 */
import { MemoryError } from "../memory/errors";
import type { Owner } from "../memory/types";
import { D1ShardDirectory } from "./d1-shard-directory";

/** The home database: keys, sessions and the shard directory live here, and it is always the first shard. */
export const HOME_SHARD = "DB";

const SIZE_TTL_MS = 60_000;
/**
 * What placing an account adds to its shard's cached size until the next measurement, so accounts
 * created within one minute spread over equal shards instead of all taking the first (~150 memories).
 */
const NEW_ACCOUNT_BYTES = 256 * 1024;

export interface ShardHome {
  binding: string;
  db: D1Database;
}

export interface ShardSettings {
  shards: string[];
  weights: Record<string, number>;
}

function isD1(value: unknown): value is D1Database {
  return typeof value === "object" && value !== null && "prepare" in value && "batch" in value && "exec" in value;
}

/** The D1 database behind a binding name; a name without a D1 binding is a deployment error. */
export function shardDatabase(env: object, binding: string): D1Database {
  const value: unknown = Reflect.get(env, binding);
  if (!isD1(value))
    throw new Error(`MEMORY_SHARDS names "${binding}", but there is no D1 binding of that name in wrangler.toml`);
  return value;
}

/** Bytes the database takes, as D1 reports it after a trivial query. */
export async function databaseBytes(db: D1Database): Promise<number> {
  const r = await db.prepare("SELECT 1").run();
  return r.meta.size_after;
}

const measured = new Map<string, { bytes: number; at: number }>();

async function cachedBytes(env: object, binding: string, now: number): Promise<number> {
  const hit = measured.get(binding);
  if (hit && now - hit.at < SIZE_TTL_MS) return hit.bytes;
  const bytes = await databaseBytes(shardDatabase(env, binding));
  measured.set(binding, { bytes, at: now });
  return bytes;
}

/** The shard with the least bytes per weight; ties go to the one listed first. */
export function chooseShard(sizes: { binding: string; bytes: number }[], weights: Record<string, number>): string {
  let best: { binding: string; load: number } | null = null;
  for (const { binding, bytes } of sizes) {
    const weight = weights[binding] ?? 1;
    if (weight <= 0) continue;
    const load = bytes / weight;
    if (best === null || load < best.load) best = { binding, load };
  }
  if (best === null) throw new Error("SHARD_WEIGHTS closes every shard to new accounts");
  return best.binding;
}

/** Where a new account goes. One that already has rows on the home database (stored before shards) stays there. */
async function placeAccount(env: object, settings: ShardSettings, accountId: string, now: number): Promise<string> {
  if (settings.shards.length === 1) return settings.shards[0];
  const home = shardDatabase(env, HOME_SHARD);
  const existing = await home.prepare("SELECT 1 FROM memories WHERE account_id = ? LIMIT 1").bind(accountId).first();
  if (existing) return HOME_SHARD;
  const sizes = await Promise.all(
    settings.shards.map(async (binding) => ({ binding, bytes: await cachedBytes(env, binding, now) })),
  );
  const choice = chooseShard(sizes, settings.weights);
  const hit = measured.get(choice);
  if (hit) hit.bytes += NEW_ACCOUNT_BYTES;
  return choice;
}

/**
 * The owner's shard: its directory row, registering it (and placing its account) on first use.
 * Its Durable Object calls this once and keeps the answer: only that object moves its owner.
 */
export async function resolveOwnerShard(
  env: object,
  settings: ShardSettings,
  owner: Owner,
  now: number,
): Promise<ShardHome> {
  const directory = new D1ShardDirectory(shardDatabase(env, HOME_SHARD));
  let binding = await directory.ownerShard(owner, now);
  if (binding === null) {
    await directory.place(owner.accountId, await placeAccount(env, settings, owner.accountId, now), now);
    binding = await directory.ownerShard(owner, now);
  }
  if (binding === null || !settings.shards.includes(binding))
    throw new Error(`the directory places this account on "${binding}", which MEMORY_SHARDS does not list`);
  return { binding, db: shardDatabase(env, binding) };
}

/**
 * The shard to read an owner's rows from outside its Durable Object (export). Refused while the
 * account moves: rows cross one owner at a time and a long read could straddle the crossing.
 */
export async function readableOwnerShard(env: object, settings: ShardSettings, owner: Owner): Promise<ShardHome> {
  const directory = new D1ShardDirectory(shardDatabase(env, HOME_SHARD));
  const account = await directory.account(owner.accountId);
  if (account?.state === "moving")
    throw new MemoryError("conflict", "This account is being moved to another database; try again in a minute");
  const binding = (await directory.knownOwnerShard(owner)) ?? account?.shard ?? HOME_SHARD;
  if (!settings.shards.includes(binding))
    throw new Error(`the directory places this account on "${binding}", which MEMORY_SHARDS does not list`);
  return { binding, db: shardDatabase(env, binding) };
}
