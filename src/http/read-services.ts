/**
 * @module http/read-services
 * What the Worker's own routes read without the single writer (export, health, similarity, the
 * dashboard's export), as one object built per request by the composition root and handed to the
 * routes through `c.var.services`. Routes parse, call one of these and answer; they never pick an
 * adapter or a shard themselves.
 */
import type { Config } from "../config";
import type { Env } from "../env";
import type { Embedder, ExportReader } from "../memory/ports";
import type { Owner } from "../memory/types";
import type { ExportPart } from "../platform-limits/export-invocation";
import type { ShardHome } from "../shards/shard-placement";

/** Active memories not yet indexed, or indexed with another model, summed over every shard. */
export interface IndexSync {
  unindexed: number;
  otherModel: number;
  /** Whether any shard's count stopped at the cap. */
  capped: boolean;
}

export interface ReadServices {
  /** One export part of the owner's rows, sized to the current invocation (refused while the account moves). */
  exportPart(owner: Owner): Promise<ExportPart>;
  /** The whole export of the owner's rows, unsized (the dashboard's download). */
  exportReader(owner: Owner): Promise<ExportReader>;
  /** Every shard MEMORY_SHARDS lists, in order. */
  shards(): ShardHome[];
  /** One shard by binding name (only one MEMORY_SHARDS lists). */
  shard(binding: string): ShardHome;
  /** Index sync over every shard, each figure counted up to `cap` rows per shard. */
  indexSync(cap: number): Promise<IndexSync>;
  /** The embedder this deployment uses (the similarity route). */
  embedder(): Embedder;
}

/** Builds the read services of one request; the composition root provides it to `buildApp`. */
export type ReadServicesFactory = (env: Env, config: Config) => ReadServices;
