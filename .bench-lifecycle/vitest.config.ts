import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
export default defineConfig(async () => ({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml", environment: "test" }, remoteBindings: false,
    miniflare: { bindings: { TEST_MIGRATIONS: await readD1Migrations("migrations") } } })],
  test: { include: [".bench-lifecycle/*.test.ts"], setupFiles: ["./test/apply-migrations.ts"], testTimeout: 300000 },
}));
