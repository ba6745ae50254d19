/**
 * @module http/route-services
 * What the Worker's own routes use besides the user's Durable Object: reads that need no single
 * writer (export, health, similarity, the dashboard's export), the account stores (keys, sessions,
 * client registrations; accounts/account-ports.ts) and the memory router's upstreams, as
 * one object built per request by the composition root and handed to the routes through
 * `c.var.services`. Routes parse, call one of these and answer; they never pick an adapter or a shard.
 */
import type { AccountStores } from "../accounts/account-ports";
import type { Config } from "../config";
import type { Env } from "../env";
import type { Embedder, ExportReader } from "../memory/ports";
import type { Owner } from "../memory/types";
import type { ExportPart } from "../platform-limits/export-invocation";
import type { AnthropicUpstream } from "../router/anthropic-dialect";
import type { ChatUpstream } from "../router/chat-upstream";
import type { ShardHome } from "../shards/shard-placement";

/** Active memories not yet indexed, or indexed with another model, summed over every shard. */
export interface IndexSync {
  unindexed: number;
  otherModel: number;
  /** Whether any shard's count stopped at the cap. */
  capped: boolean;
}

export interface RouteServices {
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
  /** The account stores: API keys, dashboard sessions, OAuth client registrations, SSE sessions. */
  accounts(): AccountStores;
  /** The memory router's OpenAI-compatible upstream, or null when none is configured (docs/router.md). */
  chatUpstream(): ChatUpstream | null;
  /** The memory router's Anthropic upstream, or null when none is configured. */
  anthropicUpstream(): AnthropicUpstream | null;
}

/** Builds the read services of one request; the composition root provides it to `buildApp`. */
export type RouteServicesFactory = (env: Env, config: Config) => RouteServices;

/**
 * The account stores for an env, outside any request's context: the OAuth library's callbacks
 * (a token exchange checks the grant's key) are handed the env only. It holds no request.
 */
export type AccountStoresFor = (env: Env) => AccountStores;
