/**
 * @module scripts/lib/dev-banner
 * The first line of `npm run dev`'s banner, from what the server's own GET /health says it runs on:
 * "offline" only when every provider is the local one; otherwise each provider in use with its status
 * (an OpenAI-compatible embedder that does not answer says so). Pure: dev.ts fetches /health.
 */

/** The parts of GET /health the banner reads (src/http/health.ts). */
export interface HealthView {
  status?: string;
  vector_index?: { kind?: string; status?: string };
  embeddings?: { provider?: string; model?: string; status?: string };
}

export function bannerTitle(env: string, health: HealthView | null): string {
  const where = env === "dev" ? "env dev" : `env ${env}: local storage, Workers AI through a remote binding`;
  if (health === null) return `  Hippocampus dev server (${where}; /health did not answer)`;
  const e = health.embeddings ?? {};
  const index = health.vector_index ?? {};
  if (env === "dev" && e.provider === "local" && index.kind === "local")
    return "  Hippocampus dev server (offline: env dev, local adapters)";
  const parts = [
    `embeddings ${e.provider ?? "?"} ${e.model ?? ""}`.trimEnd() + (e.status === "ok" ? "" : ` (${e.status ?? "?"})`),
    `vector index ${index.kind ?? "?"}${index.status === "ok" ? "" : ` (${index.status ?? "?"})`}`,
  ];
  return `  Hippocampus dev server (${where}; ${parts.join(", ")})${health.status === "ok" ? "" : ` — ${health.status ?? "?"}`}`;
}

/**
 * Said when wrangler stops before the server answered. Under --remote-ai that is almost always the
 * missing Cloudflare login (wrangler's own message speaks only of an API token).
 */
export function exitHint(env: string, listening: boolean): string | null {
  if (listening || env !== "dev-remote") return null;
  return "dev: --remote-ai reaches Workers AI through your Cloudflare account: run `npx wrangler login` first, or drop --remote-ai to stay offline (npm run dev)";
}
