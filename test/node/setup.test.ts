/**
 * `npm run setup` against a fake `wrangler` first on PATH (test/helpers/fake-wrangler.mjs), on a copy
 * of wrangler.toml: a dry run runs no command and changes nothing; a run creates the D1 database,
 * the Vectorize index with its owner metadata index and the KV namespace, writes their ids into the
 * [env.production] only and applies the migrations; a second run creates nothing; a run that failed half
 * way resumes where it stopped.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const NODE = join(ROOT, "node_modules/.bin/node");
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hippocampus-setup-"));
  symlinkSync(join(ROOT, "test/helpers/fake-wrangler.mjs"), join(dir, "wrangler"));
  copyFileSync(join(ROOT, "wrangler.toml"), join(dir, "wrangler.toml"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(args: string[] = [], fail?: string) {
  const r = spawnSync(NODE, ["scripts/setup.ts", "--config", join(dir, "wrangler.toml"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${dir}:${process.env.PATH}`,
      FAKE_WRANGLER_STATE: join(dir, "state.json"),
      FAKE_WRANGLER_LOG: join(dir, "calls.log"),
      ...(fail ? { FAKE_WRANGLER_FAIL: fail } : {}),
    },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

const calls = () =>
  existsSync(join(dir, "calls.log")) ? readFileSync(join(dir, "calls.log"), "utf8").trim().split("\n") : [];
const toml = () => readFileSync(join(dir, "wrangler.toml"), "utf8");
const state = () => JSON.parse(readFileSync(join(dir, "state.json"), "utf8"));
/** The [env.production] section, and everything else (the top level and the other environments). */
function split(t: string): { production: string; others: string } {
  const start = t.indexOf("\n[env.production]\n");
  const next = t.slice(start + 1).search(/^\[\[?(?!\[|env\.production[\].])/m);
  const end = next < 0 ? t.length : start + 1 + next;
  return { production: t.slice(start, end), others: t.slice(0, start) + t.slice(end) };
}
const production = (t: string) => split(t).production;
/** An account that already holds `seed` (what the fake wrangler keeps between commands). */
const account = (seed: Record<string, unknown>) =>
  writeFileSync(
    join(dir, "state.json"),
    JSON.stringify({ d1: [], vectorize: [], metadata: {}, kv: [], migrated: [], failed: [], ...seed }),
  );
const rateLimitIds = (t: string) => [...production(t).matchAll(/^namespace_id = "([^"]*)"/gm)].map((m) => m[1]);
const environments = (t: string) => split(t).others;

describe("npm run setup", () => {
  it("--dry-run prints every wrangler command and runs none", () => {
    const before = toml();
    const r = setup(["--dry-run"]);
    expect(r.status, r.out).toBe(0);
    expect(calls()).toEqual([]);
    expect(toml()).toBe(before);
    for (const command of [
      "would run wrangler whoami",
      "would run wrangler d1 list --json",
      "would run wrangler d1 create hippocampus",
      "would run wrangler vectorize create hippocampus-memories --dimensions=1024 --metric=cosine",
      "would run wrangler vectorize create-metadata-index hippocampus-memories --propertyName=owner --type=string",
      "would run wrangler kv namespace create hippocampus-oauth",
      "would run wrangler d1 migrations apply DB --remote --env production",
      "npx wrangler secret put OAUTH_PASSPHRASE --env production",
    ])
      expect(r.out).toContain(command);
  });

  it("creates what is missing, writes the ids into [env.production] only, applies the migrations", () => {
    const before = toml();
    const r = setup();
    expect(r.status, r.out).toBe(0);
    const s = state();
    expect(s.d1.map((d: { name: string }) => d.name)).toEqual(["hippocampus"]);
    expect(s.vectorize).toEqual(["hippocampus-memories"]);
    expect(s.metadata["hippocampus-memories"]).toEqual(["owner"]);
    expect(s.migrated).toEqual(["DB"]);
    const section = production(toml());
    expect(section).toContain(`database_id = "${s.d1[0].uuid}"`);
    expect(section).toContain(`id = "${s.kv[0].id}"`);
    expect(section).not.toContain("00000000-0000-0000-0000-000000000000");
    expect(environments(toml())).toBe(environments(before));
  });

  it("a second run finds everything and creates nothing", () => {
    expect(setup().status).toBe(0);
    const first = toml();
    const made = calls().length;
    const again = setup();
    expect(again.status, again.out).toBe(0);
    const second = calls().slice(made);
    expect(second.filter((c) => c.includes("create"))).toEqual([]);
    expect(again.out).toContain("D1 hippocampus: exists");
    expect(again.out).toContain("owner metadata index exists");
    expect(toml()).toBe(first);
  });

  it("resumes after a failure: what was made is found, the rest is made", () => {
    const failed = setup([], "vectorize create ");
    expect(failed.status).toBe(1);
    expect(failed.out).toContain("setup: wrangler vectorize create");
    expect(production(toml())).toContain(`database_id = "${state().d1[0].uuid}"`);
    const made = calls().length;
    const resumed = setup();
    expect(resumed.status, resumed.out).toBe(0);
    const after = calls().slice(made);
    expect(after.some((c) => c.startsWith("d1 create"))).toBe(false);
    expect(after.some((c) => c.startsWith("vectorize create hippocampus-memories"))).toBe(true);
    expect(state().d1).toHaveLength(1);
  });

  it("refuses an existing index of other dimensions or metric, naming both and what to do", () => {
    account({ vectorize: [{ name: "hippocampus-memories", dimensions: 768, metric: "cosine" }] });
    const r = setup();
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      "Vectorize index hippocampus-memories exists with 768 dimensions and metric cosine, but EMBEDDING_MODEL @cf/baai/bge-m3 needs 1024 dimensions and cosine",
    );
    expect(r.out).toContain("npx wrangler vectorize delete hippocampus-memories");
    expect(calls().some((c) => c.startsWith("vectorize create"))).toBe(false);
    account({ vectorize: [{ name: "hippocampus-memories", dimensions: 1024, metric: "euclidean" }] });
    const metric = setup();
    expect(metric.status).toBe(1);
    expect(metric.out).toContain("exists with 1024 dimensions and metric euclidean");
  });

  it("accepts an existing index of 1,024 dimensions and cosine", () => {
    account({ vectorize: [{ name: "hippocampus-memories", dimensions: 1024, metric: "cosine" }] });
    const r = setup();
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("Vectorize hippocampus-memories: exists (1024 dimensions, cosine)");
  });

  it("finds the OAuth namespace the README's manual command made, and the one the config names", () => {
    account({ kv: [{ id: "a".repeat(32), title: "OAUTH_KV" }] });
    const r = setup();
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("KV OAUTH_KV: exists");
    expect(state().kv).toHaveLength(1);
    expect(production(toml())).toContain(`id = "${"a".repeat(32)}"`);
    // The config now names it: a namespace titled hippocampus-oauth made later does not take its place.
    account({
      kv: [
        { id: "b".repeat(32), title: "hippocampus-oauth" },
        { id: "a".repeat(32), title: "OAUTH_KV" },
      ],
    });
    const again = setup();
    expect(again.status, again.out).toBe(0);
    expect(again.out).toContain("KV OAUTH_KV: exists (the id in the config)");
    expect(production(toml())).toContain(`id = "${"a".repeat(32)}"`);
  });

  it("replaces the docs' example rate-limit namespace ids with ids of this account, once", () => {
    expect(rateLimitIds(toml())).toEqual(["1001", "1002"]);
    const others = environments(toml());
    expect(setup().status).toBe(0);
    const ids = rateLimitIds(toml());
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      expect(id).toMatch(/^[1-9]\d{5,9}$/);
      expect(["1001", "1002"]).not.toContain(id);
    }
    expect(new Set(ids).size).toBe(2);
    expect(environments(toml())).toBe(others);
    expect(setup().status).toBe(0);
    expect(rateLimitIds(toml())).toEqual(ids);
  });

  it("creates every index the config names, one per shard with its own, each with its owner metadata index", () => {
    const path = join(dir, "wrangler.toml");
    writeFileSync(
      path,
      toml().replace(
        '[[env.production.vectorize]]\nbinding = "VECTORIZE"\nindex_name = "hippocampus-memories"\n',
        '[[env.production.vectorize]]\nbinding = "VECTORIZE"\nindex_name = "hippocampus-memories"\n\n[[env.production.vectorize]]\nbinding = "VECTORIZE_SHARD_1"\nindex_name = "hippocampus-memories-shard-1"\n',
      ),
    );
    const r = setup();
    expect(r.status, r.out).toBe(0);
    expect(state().vectorize).toEqual(["hippocampus-memories", "hippocampus-memories-shard-1"]);
    expect(state().metadata["hippocampus-memories-shard-1"]).toEqual(["owner"]);
  });

  it("--plan free writes the free profile's vars, leaves Vectorize and the CPU limit out, once", async () => {
    const r = setup(["--plan", "free"]);
    expect(r.status, r.out).toBe(0);
    const section = production(toml());
    for (const line of [
      'PLATFORM_LIMITS = "free"',
      'VECTOR_INDEX = "local"',
      'LOCAL_INDEX_MAX_VECTORS = "20000"',
      'RERANKER = "none"',
      'LLM_PROVIDER = "rules"',
    ])
      expect(section).toContain(line);
    expect(section).not.toMatch(/^VECTOR_INDEX = "vectorize"$/m);
    expect(section).toContain('# [[env.production.vectorize]]\n# binding = "VECTORIZE"');
    expect(section).toContain("# [env.production.limits]\n# cpu_ms = 30000");
    expect(calls().some((c) => c.startsWith("vectorize"))).toBe(false);
    // What the server's own config makes of the result: the free plan on the local index.
    const { unstable_readConfig } = await import("wrangler");
    const { loadConfig } = await import("../../src/config");
    const prod = unstable_readConfig({ config: join(dir, "wrangler.toml"), env: "production" }, { hideWarnings: true });
    expect(prod.vectorize).toEqual([]);
    expect(prod.limits?.cpu_ms).toBeUndefined();
    const config = loadConfig(prod.vars);
    expect(config.PLATFORM_LIMITS.plan).toBe("free");
    expect(config.VECTOR_INDEX).toBe("local");
    const once = toml();
    expect(setup(["--plan", "free"]).status).toBe(0);
    expect(toml()).toBe(once);
  });
});
