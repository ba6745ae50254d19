/**
 * `npm run deploy:check` against a copy of the repo's wrangler.toml in a temp directory: with the
 * template's placeholder ids it fails, naming each and the command that creates it, yet still
 * builds and sizes the bundle; with ids Cloudflare could have issued it passes. Runs the real
 * script (wrangler's config reader, esbuild, `wrangler deploy --dry-run`), offline.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPlaceholderId, placeholderIds } from "../../scripts/lib/deploy-placeholders";

const ROOT = join(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "hippocampus-deploy-check-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The repo's wrangler.toml, with paths made absolute (the copy lives elsewhere) and `ids` replaced. */
function config(name: string, ids: Record<string, string> = {}): string {
  let text = readFileSync(join(ROOT, "wrangler.toml"), "utf8")
    .replace('main = "src/index.ts"', `main = ${JSON.stringify(join(ROOT, "src/index.ts"))}`)
    .replaceAll('migrations_dir = "migrations"', `migrations_dir = ${JSON.stringify(join(ROOT, "migrations"))}`);
  for (const [from, to] of Object.entries(ids)) text = text.replaceAll(from, to);
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
}

function deployCheck(configPath: string) {
  const r = spawnSync(process.execPath, ["scripts/deploy-check.ts", "--config", configPath], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}` },
    timeout: 400_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("placeholder ids", () => {
  it("knows the template's ids from ids Cloudflare issues", () => {
    expect(isPlaceholderId("00000000-0000-0000-0000-000000000000")).toBe(true);
    expect(isPlaceholderId("00000000-0000-0000-0000-000000000001")).toBe(true);
    expect(isPlaceholderId("00000000000000000000000000000000")).toBe(true);
    expect(isPlaceholderId("<your-database-id>")).toBe(true);
    expect(isPlaceholderId(undefined)).toBe(true);
    expect(isPlaceholderId("4f7a1c2e-9b3d-4e8f-a1b2-c3d4e5f60718")).toBe(false);
    expect(isPlaceholderId("0f1e2d3c4b5a69788796a5b4c3d2e1f0")).toBe(false);
  });

  it("names the command that creates each resource", () => {
    const found = placeholderIds({
      d1_databases: [
        { binding: "DB", database_name: "hippocampus", database_id: "00000000-0000-0000-0000-000000000000" },
      ],
      kv_namespaces: [{ binding: "OAUTH_KV", id: "0f1e2d3c4b5a69788796a5b4c3d2e1f0" }],
      vectorize: [],
    });
    expect(found).toEqual([
      {
        what: 'D1 DB database_id "00000000-0000-0000-0000-000000000000"',
        create: "npx wrangler d1 create hippocampus",
      },
    ]);
  });
});

const REAL_IDS = {
  'database_id = "00000000-0000-0000-0000-000000000000"': 'database_id = "4f7a1c2e-9b3d-4e8f-a1b2-c3d4e5f60718"',
  'id = "00000000000000000000000000000000"': 'id = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"',
  'namespace_id = "1001"': 'namespace_id = "482913"',
  'namespace_id = "1002"': 'namespace_id = "482914"',
};

describe("the CPU limit", () => {
  it("must be set explicitly for Workers Paid", () => {
    const { status, out } = deployCheck(
      config("no-cpu.toml", { ...REAL_IDS, "[env.production.limits]\ncpu_ms = 30000": "" }),
    );
    expect(status).toBe(1);
    expect(out).toContain("[env.production.limits] cpu_ms is not set: set it explicitly");
  });
  it("must cover what PLATFORM_LIMITS sizes steps by", () => {
    const { status, out } = deployCheck(config("low-cpu.toml", { ...REAL_IDS, "cpu_ms = 30000": "cpu_ms = 50" }));
    expect(status).toBe(1);
    expect(out).toContain("cpu_ms = 50 is below the 30000 ms PLATFORM_LIMITS sizes each step by");
  });
  it("is left out under PLATFORM_LIMITS=free", () => {
    const { status, out } = deployCheck(
      config("free-cpu.toml", {
        ...REAL_IDS,
        "# D1 databases holding memory rows": 'PLATFORM_LIMITS = "free"\n# D1 databases holding memory rows',
      }),
    );
    expect(status).toBe(1);
    expect(out).toContain("cpu_ms = 30000 with PLATFORM_LIMITS=free: Workers Free's CPU time is 10 ms per invocation");
  });
});

describe("npm run deploy:check", () => {
  it("refuses the template's placeholder ids, names the commands, and still prints the bundle size", () => {
    const { status, out } = deployCheck(config("template.toml"));
    expect(status).toBe(1);
    expect(out).toContain('D1 DB database_id "00000000-0000-0000-0000-000000000000"');
    expect(out).toContain('KV OAUTH_KV id "00000000000000000000000000000000"');
    expect(out).toContain("npx wrangler d1 create hippocampus");
    expect(out).toContain("npx wrangler kv namespace create hippocampus-oauth");
    expect(out).toContain(
      'rate limit OAUTH_RATE_LIMITER namespace_id "1001" (an example id: it must be unique in your account)',
    );
    expect(out).toContain('rate limit OAUTH_SIGNIN_LIMITER namespace_id "1002"');
    expect(out).toContain("npx wrangler vectorize create hippocampus-memories --dimensions=1024 --metric=cosine");
    expect(out).toContain(
      "npx wrangler vectorize create-metadata-index hippocampus-memories --propertyName=owner --type=string",
    );
    expect(out).toMatch(
      /✓ bundle: [\d.]+ KiB, gzip [\d.]+ KiB \([\d.]+% of the 64 MiB Worker size limit, every plan\)/,
    );
    expect(out).not.toContain("deploy:check passed");
  });

  it("passes with ids Cloudflare could have issued", () => {
    const real = config("real.toml", REAL_IDS);
    const { status, out } = deployCheck(real);
    expect(out).toContain(
      "✓ resource ids: D1 DB, KV OAUTH_KV, rate limit OAUTH_RATE_LIMITER, rate limit OAUTH_SIGNIN_LIMITER are not placeholders",
    );
    expect(out).toContain("✓ CPU: [env.production.limits] cpu_ms = 30000 (PLATFORM_LIMITS sizes steps by 30000 ms)");
    expect(out).toMatch(/✓ bundle: [\d.]+ KiB/);
    expect(out).toContain("deploy:check passed");
    expect(status).toBe(0);
  });
});
