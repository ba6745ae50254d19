import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { FAKE_ANTHROPIC_KEY, FAKE_UPSTREAM_KEY, FakeChatUpstream } from "./test/helpers/fake-chat-upstream.ts";

/**
 * Tests that need other wrangler vars run as their own project, in their own workerd with those
 * vars overriding [env.test]. `npm test` runs every project.
 */
const VARIANTS: Record<string, { files: string[]; vars: Record<string, string> }> = {
  "session-reset": { files: ["test/e2e/session-reset.test.ts"], vars: { PROGRESSIVE_RESET_SECONDS: "2" } },
  // Stages 1–2 showing excerpts of long memories (memory/text/excerpt.ts); off by default.
  excerpts: { files: ["test/e2e/first-recall-excerpts.test.ts"], vars: { PROGRESSIVE_EXCERPT_TOKENS: "16" } },
  // Two shards (docs/shards.md): placement, isolation, moves and the cron across both databases.
  shards: {
    files: ["test/integration/shards-*.test.ts"],
    vars: { MEMORY_SHARDS: '["DB","DB_SHARD_1"]', ADMIN_SECRET: "test-admin-secret-0123456789abcdef" },
  },
  // Small per-invocation limits (src/platform-limits/), so stores of a few hundred rows need several
  // invocations: export parts, shard moves in steps, the cron, imports and consolidation within them.
  limits: {
    files: ["test/integration/limits-*.test.ts"],
    vars: {
      PLATFORM_LIMITS: '{"d1_queries_per_invocation":40}',
      MEMORY_SHARDS: '["DB","DB_SHARD_1"]',
      ADMIN_SECRET: "test-admin-secret-0123456789abcdef",
    },
  },
  // An export in parts: 10 queries per invocation, so a few thousand memories need several parts.
  "limits-export": {
    files: ["test/integration/export-parts.test.ts"],
    vars: { PLATFORM_LIMITS: '{"d1_queries_per_invocation":10}' },
  },
  // Workers Free as published (src/platform-limits/): steps sized by its 10 ms of CPU as well as its D1
  // queries; two shards, for a move's steps.
  "free-plan": {
    files: ["test/integration/free-plan-cpu.test.ts", "test/e2e/daily-usage.test.ts"],
    vars: {
      PLATFORM_LIMITS: "free",
      MEMORY_SHARDS: '["DB","DB_SHARD_1"]',
      ADMIN_SECRET: "test-admin-secret-0123456789abcdef",
    },
  },
  "work-zh": {
    files: ["test/e2e/prefix-locale.test.ts"],
    vars: { TOOL_PREFIX: "work_", LOCALE: "zh", SERVER_NAME: "work-memory", PROGRESSIVE_INJECTION: "off" },
  },
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  // The memory router's upstream (test/e2e/router-proxy.test.ts): a fake OpenAI server on loopback.
  const upstream = await new FakeChatUpstream().start();
  VARIANTS.router = {
    files: ["test/e2e/router-proxy.test.ts"],
    vars: {
      ROUTER_UPSTREAM_BASE_URL: upstream.baseUrl,
      ROUTER_UPSTREAM_API_KEY: FAKE_UPSTREAM_KEY,
      ROUTER_ANTHROPIC_BASE_URL: upstream.baseUrl,
      ROUTER_ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY,
    },
  };
  const worker = (vars: Record<string, string> = {}) =>
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml", environment: "test" },
      remoteBindings: false,
      miniflare: { bindings: { TEST_MIGRATIONS: migrations, ...vars } },
    });
  const common = { setupFiles: ["./test/apply-migrations.ts"], testTimeout: 30_000 };
  const variantFiles = Object.values(VARIANTS).flatMap((v) => v.files);
  return {
    test: {
      projects: [
        {
          plugins: [worker()],
          test: {
            name: "main",
            include: ["test/**/*.test.ts"],
            exclude: [...configDefaults.exclude, ...variantFiles, "test/node/**", "test/browser/**", "test/unit/**"],
            // One workerd per worker for all its files instead of one per file (its start-up was most of the
            // suite's time); every file still starts on empty tables (test/apply-migrations.ts).
            isolate: false,
            ...common,
          },
        },
        // Pure code (test/unit/): no binding, no Durable Object, nothing of workerd's, so it runs in Node, where
        // a file costs no workerd start-up (about 1-3 s each, 82 files) and workers are reused across files.
        {
          test: {
            name: "unit",
            include: ["test/unit/**/*.test.ts"],
            environment: "node",
            isolate: false,
            testTimeout: 30_000,
          },
        },
        // Checks that need Node itself (the ReDoS checker runs a native binary), outside workerd.
        { test: { name: "node", include: ["test/node/**/*.test.ts"], environment: "node", testTimeout: 600_000 } },
        // The dashboard in a real headless Chromium against `wrangler dev` (test/browser/, README "Browser tests").
        {
          test: {
            name: "browser",
            include: ["test/browser/**/*.test.ts"],
            environment: "node",
            // Each file starts its own wrangler dev and Chromium: one at a time, so two never starve each other.
            fileParallelism: false,
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
        ...Object.entries(VARIANTS).map(([name, v]) => ({
          plugins: [worker(v.vars)],
          test: { name, include: v.files, ...common },
        })),
      ],
    },
  };
});
