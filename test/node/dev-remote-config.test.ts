/**
 * `npm run dev -- --remote-ai` (env dev-remote) checked offline, the way deploy:check checks
 * production: wrangler's own reader accepts it (it throws on an error), the AI binding is remote, every
 * other binding is env dev's (the same local storage, never the production Vectorize index), the vars pass
 * the server's config schema with Workers AI models the installed types list, and env dev stays
 * offline (no AI binding, local adapters).
 */
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { loadConfig } from "../../src/config";
import { isEmbeddingModel, isLlmModel, isRerankerModel } from "../../src/providers/workers-ai-models";

const read = (env: string) => ({ config: unstable_readConfig({ config: "wrangler.toml", env }) });

const strings = (vars: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(vars).filter(([, v]) => typeof v === "string")) as Record<string, string>;

describe("env dev-remote: real Workers AI models while developing", () => {
  const remote = read("dev-remote").config;
  const dev = read("dev").config;

  it("binds AI remotely and nothing else remotely", () => {
    expect(remote.ai).toEqual({ binding: "AI", remote: true });
    expect(remote.vectorize).toEqual([]);
    for (const db of remote.d1_databases) expect(db.remote, db.binding).toBeUndefined();
  });

  it("keeps env dev's storage: the same D1 databases, Durable Objects, KV and rate limits", () => {
    expect(remote.d1_databases).toEqual(dev.d1_databases);
    expect(remote.durable_objects).toEqual(dev.durable_objects);
    expect(remote.kv_namespaces).toEqual(dev.kv_namespaces);
    expect(remote.ratelimits).toEqual(dev.ratelimits);
  });

  it("its vars pass the server's config with models the installed Workers AI types list", () => {
    const config = loadConfig({ ...strings(remote.vars), AI: {} });
    expect(config).toMatchObject({
      EMBEDDING_PROVIDER: "workers-ai",
      LLM_PROVIDER: "workers-ai",
      RERANKER: "workers-ai",
      VECTOR_INDEX: "local",
    });
    expect(isEmbeddingModel(config.EMBEDDING_MODEL)).toBe(true);
    expect(isLlmModel(config.LLM_MODEL)).toBe(true);
    expect(isRerankerModel(config.RERANKER_MODEL)).toBe(true);
  });

  it("leaves env dev offline: no AI binding, the local adapters", () => {
    expect(dev.ai).toBeUndefined();
    expect(loadConfig(strings(dev.vars))).toMatchObject({
      EMBEDDING_PROVIDER: "local",
      LLM_PROVIDER: "rules",
      RERANKER: "none",
    });
  });
});
