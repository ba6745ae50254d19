/**
 * @module env
 * The Worker's bindings and vars. Generated from wrangler.toml by `npm run types` into
 * worker-configuration.d.ts (checked in; `npm run check` fails when it is stale), so a binding added
 * to the config is typed here without a hand-written copy. Vars arrive as strings and are parsed once
 * by config.ts. Bindings that only the production config declares (AI, VECTORIZE) are optional.
 */
export type Env = Cloudflare.Env & {
  /** Secret (wrangler secret put), so not in wrangler.toml: single-user sign-in on the authorization page. */
  OAUTH_PASSPHRASE?: string;
  /** Secret: the bearer token of /admin/shards (`npm run shards`); unset, those routes do not exist. */
  ADMIN_SECRET?: string;
  /** Secrets: Bearer keys of the OpenAI-compatible embedding and chat servers (unset for Ollama). */
  EMBEDDING_API_KEY?: string;
  LLM_API_KEY?: string;
  /** Secret: the memory router's Bearer key for its upstream (ROUTER_UPSTREAM_BASE_URL); never logged, never sent elsewhere. */
  ROUTER_UPSTREAM_API_KEY?: string;
  /** Secret: the memory router's key for its Anthropic upstream (ROUTER_ANTHROPIC_BASE_URL). */
  ROUTER_ANTHROPIC_API_KEY?: string;
};
