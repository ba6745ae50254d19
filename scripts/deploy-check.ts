/**
 * @module scripts/deploy-check
 * `npm run deploy:check [-- --config wrangler.toml]` — what `wrangler deploy` would ship, checked offline before it ships:
 *  0. no resource id is the template's placeholder (all-zero D1 database_id, KV id: deploy-placeholders.ts);
 *     each one found is named with the command that creates it. The other checks still run (the
 *     bundle size is still printed) and the run fails at the end;
 *  1. every Workers AI model the production vars name (and the config defaults) is in the installed
 *     `@cloudflare/workers-types` model list (AiModels): a retired or misspelt model fails here;
 *  2. the production vars pass the server's own config schema (src/config.ts, bundled with esbuild);
 *  3. the bindings that configuration needs are declared in wrangler.toml's [env.production];
 *  4. `[env.production.limits] cpu_ms` is set explicitly (Paid) and covers what PLATFORM_LIMITS sizes
 *     steps by; under PLATFORM_LIMITS=free it is left out (Free's 10 ms cannot be raised);
 *  5. `wrangler deploy --dry-run` builds the production bundle, whose size is reported against the
 *     64 MiB Worker size limit (uncompressed, every plan: the limits page and wrangler's own reporter);
 *  6. `wrangler check startup` runs the built bundle's startup (module evaluation) locally.
 * Exits 1 on the first failed check (after the rest, for placeholder ids). Node built-ins, wrangler's config reader and esbuild only.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { unstable_readConfig } from "wrangler";
import { placeholderIds, vectorizeCommands } from "./lib/deploy-placeholders.ts";

class CheckError extends Error {}

const say = (mark: string, text: string) => console.log(`${mark} ${text}`);
const pass = (text: string) => say("✓", text);

/**
 * The Worker size limit: 64 MiB uncompressed on every plan (developers.cloudflare.com/workers/platform/limits/,
 * read 2026-12-04; the former 3 MB Free / 10 MB Paid compressed limits are gone, and wrangler 4.164's
 * bundle reporter measures against 64 MiB uncompressed, workers-sdk#14001).
 */
const SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/** Workers Paid's CPU time per invocation: 30 s by default, at most 5 minutes with `limits.cpu_ms`. */
const PAID_MAX_CPU_MS = 300_000;

type ProductionConfig = ReturnType<typeof unstable_readConfig>;

/** Model names of `interface AiModels { … }` in the installed workers-types (one key per line). */
function installedModels(): { version: string; models: Set<string> } {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@cloudflare/workers-types/package.json");
  const version = (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
  const types = readFileSync(join(pkg, "..", "index.d.ts"), "utf8");
  const start = types.indexOf("interface AiModels {");
  if (start < 0) throw new CheckError("the installed workers-types have no AiModels interface");
  const body = types.slice(start, types.indexOf("\n}", start));
  const models = new Set<string>();
  for (const line of body.split("\n")) {
    const quoted = line.trim();
    if (quoted.startsWith('"')) models.add(quoted.slice(1, quoted.indexOf('"', 1)));
  }
  return { version, models };
}

/** The server's config schema applied to the production vars: the parsed config, defaults included. */
async function parsedConfig(vars: Record<string, unknown>, work: string): Promise<Record<string, unknown>> {
  const out = join(work, "config.mjs");
  await build({
    entryPoints: [resolve("src/config.ts")],
    bundle: true,
    platform: "neutral",
    format: "esm",
    outfile: out,
    logLevel: "silent",
  });
  const { loadConfig } = (await import(pathToFileURL(out).href)) as {
    loadConfig(env: object): Record<string, unknown>;
  };
  try {
    return loadConfig(vars);
  } catch (err) {
    throw new CheckError(`src/config.ts refuses the production vars: ${(err as Error).message}`);
  }
}

const MODEL_SETTINGS = [
  ["LLM_MODEL", "LLM_PROVIDER"],
  ["EMBEDDING_MODEL", "EMBEDDING_PROVIDER"],
  ["RERANKER_MODEL", "RERANKER"],
] as const;

/**
 * Workers AI model names against the installed list: those the vars name (`@cf/…`, `@hf/…`) before
 * anything else, then, with `effective`, the ones the parsed config uses (defaults included).
 */
function checkModels(settings: Record<string, unknown>, effective: boolean): void {
  const { version, models } = installedModels();
  const named: [string, string][] = [];
  for (const [model, provider] of MODEL_SETTINGS) {
    const name = settings[model];
    if (typeof name !== "string") continue;
    if (effective ? settings[provider] === "workers-ai" : /^@(cf|hf)\//.test(name)) named.push([model, name]);
  }
  const gone = named.filter(([, model]) => !models.has(model));
  if (gone.length > 0)
    throw new CheckError(
      `not in @cloudflare/workers-types ${version} (retired or misspelt): ${gone.map(([k, m]) => `${k}=${m}`).join(", ")}`,
    );
  if (!effective) return;
  pass(
    `models: ${named.map(([k, m]) => `${k} ${m}`).join(", ") || "none (offline adapters)"} — all in @cloudflare/workers-types ${version} (${models.size} models)`,
  );
}

function checkBindings(prod: ProductionConfig, config: Record<string, unknown>): void {
  const declared = new Map<string, string>();
  for (const d of prod.d1_databases) declared.set(d.binding, "D1");
  for (const d of prod.durable_objects.bindings) declared.set(d.name, `Durable Object ${d.class_name}`);
  for (const k of prod.kv_namespaces) declared.set(k.binding, "KV");
  for (const r of prod.ratelimits ?? []) declared.set(r.name, "rate limit");
  for (const v of prod.vectorize) declared.set(v.binding, `Vectorize ${v.index_name}`);
  if (prod.ai) declared.set(prod.ai.binding, "Workers AI");
  const usesAi = [config.LLM_PROVIDER, config.EMBEDDING_PROVIDER, config.RERANKER].includes("workers-ai");
  const needed: [string, string][] = [
    ["DB", "the source of truth"],
    // Every shard MEMORY_SHARDS lists needs its D1 binding (docs/shards.md).
    ...((config.MEMORY_SHARDS as string[] | undefined) ?? [])
      .filter((b) => b !== "DB")
      .map((b): [string, string] => [b, "a shard in MEMORY_SHARDS"]),
    ["USER_MEMORY", "one Durable Object per user"],
    ["SSE_SESSION", "legacy SSE sessions"],
    ["OAUTH_KV", "OAuth grants and clients"],
    ["OAUTH_RATE_LIMITER", "OAuth endpoint rate limit"],
    ["OAUTH_SIGNIN_LIMITER", "OAuth sign-in rate limit"],
    ...(usesAi ? ([["AI", "a Workers AI provider is configured"]] as [string, string][]) : []),
    ...(config.VECTOR_INDEX === "vectorize" ? ([["VECTORIZE", "VECTOR_INDEX=vectorize"]] as [string, string][]) : []),
    // A shard with its own Vectorize index (VECTORIZE_BY_SHARD) needs that binding (docs/shards.md).
    ...(config.VECTOR_INDEX === "vectorize"
      ? Object.entries((config.VECTORIZE_BY_SHARD as Record<string, string> | undefined) ?? {})
          .filter(([, b]) => b !== "VECTORIZE")
          .map(([shard, b]): [string, string] => [b, `the Vectorize index of ${shard} (VECTORIZE_BY_SHARD)`])
      : []),
  ];
  const missing = needed.filter(([name]) => !declared.has(name));
  if (missing.length > 0)
    throw new CheckError(
      `missing bindings in [env.production]: ${missing.map(([n, why]) => `${n} (${why})`).join(", ")}`,
    );
  const classes = new Set(
    prod.migrations.flatMap((m: { new_sqlite_classes?: string[]; new_classes?: string[] }) => [
      ...(m.new_sqlite_classes ?? []),
      ...(m.new_classes ?? []),
    ]),
  );
  const unmigrated = prod.durable_objects.bindings.filter((b: { class_name: string }) => !classes.has(b.class_name));
  if (unmigrated.length > 0)
    throw new CheckError(
      `Durable Object classes without a migration: ${unmigrated.map((b: { class_name: string }) => b.class_name).join(", ")}`,
    );
  if ((prod.triggers.crons ?? []).length === 0)
    throw new CheckError("no Cron trigger: the lifecycle jobs would never run");
  pass(
    `bindings: ${needed.map(([n]) => `${n} (${declared.get(n)})`).join(", ")}; crons ${prod.triggers.crons?.join(", ")}`,
  );
}

/**
 * The CPU limit is explicit: `[env.production.limits] cpu_ms` bounds a runaway invocation (and its bill)
 * at a known figure, and must cover what PLATFORM_LIMITS sizes each step by, or steps stop half way.
 * Workers Free's 10 ms cannot be raised: with PLATFORM_LIMITS=free it must be left out.
 */
function checkCpuLimit(prod: ProductionConfig, config: Record<string, unknown>): void {
  const limits = config.PLATFORM_LIMITS as { plan: string; cpu_ms_per_invocation: number };
  const cpu = (prod.limits as { cpu_ms?: number } | undefined)?.cpu_ms;
  if (limits.plan === "free") {
    if (cpu !== undefined)
      throw new CheckError(
        `[env.production.limits] cpu_ms = ${cpu} with PLATFORM_LIMITS=free: Workers Free's CPU time is 10 ms per invocation and cannot be raised; remove [env.production.limits]`,
      );
    return pass("CPU: Workers Free, 10 ms per invocation (PLATFORM_LIMITS=free sizes every step by it)");
  }
  if (cpu === undefined)
    throw new CheckError(
      `[env.production.limits] cpu_ms is not set: set it explicitly (30000 is Workers Paid's default, ${PAID_MAX_CPU_MS} the most), so a runaway invocation stops at a bound you chose`,
    );
  if (cpu > PAID_MAX_CPU_MS)
    throw new CheckError(`[env.production.limits] cpu_ms = ${cpu} is over Workers Paid's ${PAID_MAX_CPU_MS} ms`);
  if (cpu < limits.cpu_ms_per_invocation)
    throw new CheckError(
      `[env.production.limits] cpu_ms = ${cpu} is below the ${limits.cpu_ms_per_invocation} ms PLATFORM_LIMITS sizes each step by: raise cpu_ms, or set PLATFORM_LIMITS = '{"cpu_ms_per_invocation": ${cpu}}'`,
    );
  pass(
    `CPU: [env.production.limits] cpu_ms = ${cpu} (PLATFORM_LIMITS sizes steps by ${limits.cpu_ms_per_invocation} ms)`,
  );
}

function wrangler(args: string[]): { status: number; output: string } {
  const r = spawnSync("wrangler", args, {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
    timeout: 300_000,
  });
  return { status: r.status ?? 1, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/**
 * The template's placeholder ids: the failure text naming each and the commands that create the
 * resources (Vectorize's too, which no offline check can see), or null when every id is real.
 */
function placeholderFailure(prod: ProductionConfig, configPath: string): string | null {
  const found = placeholderIds(prod);
  const vectorize = vectorizeCommands(prod);
  if (found.length === 0) {
    pass(
      `resource ids: ${[...prod.d1_databases.map((d: { binding: string }) => `D1 ${d.binding}`), ...prod.kv_namespaces.map((k: { binding: string }) => `KV ${k.binding}`), ...(prod.ratelimits ?? []).map((r: { name: string }) => `rate limit ${r.name}`)].join(", ")} are not placeholders` +
        (vectorize.length ? "; Vectorize indexes are named, not checked offline" : ""),
    );
    return null;
  }
  return [
    `${configPath} still has the template's placeholder ids: ${found.map((p) => p.what).join(", ")}.`,
    "  Create each resource, put the id it prints into [env.production] (or run npm run setup), then run deploy:check again:",
    ...found.map((p) => `    ${p.create}`),
    ...(vectorize.length ? ["  and, if not done yet, the Vectorize index and its owner filter:"] : []),
    ...vectorize.map((c) => `    ${c}`),
  ].join("\n");
}

/** Builds the production bundle of `configPath`; returns its path. */
function checkBundle(work: string, configPath: string): string {
  const bundle = join(work, "worker.bundle");
  const r = wrangler([
    "deploy",
    "--dry-run",
    "--config",
    configPath,
    "--env",
    "production",
    "--outdir",
    join(work, "dist"),
    "--outfile",
    bundle,
  ]);
  const size = /Total Upload:\s*([\d.]+) KiB \/ gzip:\s*([\d.]+) KiB/.exec(r.output);
  if (r.status !== 0 || !size) throw new CheckError(`wrangler deploy --dry-run failed:\n${r.output.slice(-2000)}`);
  const bytes = Number(size[1]) * 1024;
  if (bytes > SIZE_LIMIT_BYTES)
    throw new CheckError(`bundle is ${size[1]} KiB, over the 64 MiB Worker size limit (uncompressed, every plan)`);
  pass(
    `bundle: ${size[1]} KiB, gzip ${size[2]} KiB (${((bytes / SIZE_LIMIT_BYTES) * 100).toFixed(1)}% of the 64 MiB Worker size limit, every plan)`,
  );
  return bundle;
}

function checkStartup(bundle: string, work: string): void {
  const profilePath = join(work, "startup.cpuprofile");
  const args = ["check", "startup", "--worker", bundle, "--outfile", profilePath];
  // wrangler gives workerd 10 s to start the profiler; on a loaded machine that can pass, so once more.
  let r = wrangler(args);
  if (r.status !== 0 && /timed out/.test(r.output)) r = wrangler(args);
  if (r.status !== 0 && /timed out/.test(r.output)) {
    say(
      "!",
      "startup: wrangler check startup could not run here (its profiler timed out after 10 s twice); not checked",
    );
    return;
  }
  if (r.status !== 0) throw new CheckError(`wrangler check startup failed:\n${r.output.slice(-2000)}`);
  const profile = JSON.parse(readFileSync(profilePath, "utf8")) as { startTime: number; endTime: number };
  const ms = ((profile.endTime - profile.startTime) / 1000).toFixed(0);
  pass(`startup: wrangler check startup evaluated the bundle locally; the profiled startup took ${ms} ms (limit 1 s)`);
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "hippocampus-deploy-check-"));
  try {
    const { values } = parseArgs({ options: { config: { type: "string", default: "wrangler.toml" } } });
    const production = unstable_readConfig({ config: values.config, env: "production" }, { hideWarnings: true });
    console.log(`deploy:check — ${production.name}, [env.production] of ${values.config}`);
    const placeholders = placeholderFailure(production, values.config);
    if (placeholders) say("✗", placeholders);
    checkModels(production.vars, false);
    const config = await parsedConfig(production.vars, work);
    pass("config: src/config.ts accepts the production vars");
    checkModels(config, true);
    checkBindings(production, config);
    checkCpuLimit(production, config);
    const bundle = checkBundle(work, values.config);
    checkStartup(bundle, work);
    if (placeholders) throw new CheckError(`deploy:check failed: placeholder resource ids in ${values.config} (above)`);
    console.log("deploy:check passed");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  say("✗", err instanceof CheckError ? err.message : String((err as Error).stack ?? err));
  process.exit(1);
});
