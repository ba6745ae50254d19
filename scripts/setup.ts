/**
 * @module scripts/setup
 * `npm run setup [-- --dry-run] [--config wrangler.toml]`: the Cloudflare resources a deployment
 * needs, created or found, and their ids written into wrangler.toml's [env.production] — the D1 database(s),
 * the Vectorize index with its `owner` metadata index (an existing one must have bge-m3's 1,024
 * dimensions and cosine), the OAuth KV namespace (`hippocampus-oauth`, or the one the config already
 * names), rate-limit namespace ids unique to the account (not the docs' 1001 / 1002) — then the migrations
 * applied to each database and the secrets offered. Idempotent and resumable: every step looks for
 * what exists first (by name), so a second run, or one after a failure, only does what is left.
 * `--dry-run` prints every wrangler command it would run and runs none. `--plan free` writes the free
 * profile's vars first (FREE_PROFILE_VARS) and creates no Vectorize index. Needs `npx wrangler login`.
 * Then: `npm run deploy:check` and `npm run deploy`.
 */
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { parseArgs } from "node:util";
import {
  commentOutProductionTable,
  EXAMPLE_RATELIMIT_IDS,
  isPlaceholder,
  OAUTH_KV_TITLE,
  PRODUCTION_ENV,
  readResources,
  setProductionVar,
  writeId,
} from "./lib/setup-config.ts";

class SetupError extends Error {}

const VECTOR_DIMENSIONS = 1024; // bge-m3, the production EMBEDDING_MODEL
const VECTOR_METRIC = "cosine";
/**
 * Titles an OAuth namespace made by hand may carry: `kv namespace create OAUTH_KV` (the README's
 * command before it named the title) and the same with `--env production` (wrangler prefixes the env).
 */
const LEGACY_KV_TITLES = ["OAUTH_KV", `${PRODUCTION_ENV}-OAUTH_KV`, `${PRODUCTION_ENV}-${OAUTH_KV_TITLE}`];
const SECRETS = [
  ["OAUTH_PASSPHRASE", "single-user sign-in on the OAuth page (12+ characters)"],
  ["ADMIN_SECRET", "enables /admin/shards for npm run shards (32+ characters)"],
] as const;

const { values } = parseArgs({
  options: {
    "dry-run": { type: "boolean" },
    config: { type: "string" },
    plan: { type: "string" },
    help: { type: "boolean" },
  },
});
const dryRun = values["dry-run"] ?? false;
const plan = values.plan ?? "paid";
if (plan !== "paid" && plan !== "free") {
  console.error(`setup: --plan must be paid or free (got "${plan}")`);
  process.exit(1);
}

/**
 * The free profile (docs/deploying.md, "The free profile"): what fits Workers Free. The vectors live
 * in each user's Durable Object (no Vectorize: Free stores 5 M dimensions, ~4,880 memories of bge-m3),
 * at most 20,000 a user (~22 MB of the 48 MiB a user's local index may hold); no reranker and the rules
 * instead of the LLM (neurons and CPU); PLATFORM_LIMITS=free sizes every step by Free's limits.
 */
const FREE_PROFILE_VARS: Record<string, string> = {
  PLATFORM_LIMITS: "free",
  VECTOR_INDEX: "local",
  LOCAL_INDEX_MAX_VECTORS: "20000",
  RERANKER: "none",
  LLM_PROVIDER: "rules",
};
const configPath = values.config ?? "wrangler.toml";

/** Runs (or, in a dry run, prints) one wrangler command; null in a dry run. */
function wrangler(args: string[], input?: "inherit"): string | null {
  console.log(`${dryRun ? "would run" : "$"} wrangler ${args.join(" ")}`);
  if (dryRun) return null;
  const r = spawnSync("wrangler", args, {
    encoding: "utf8",
    stdio: [input ?? "ignore", input ? "inherit" : "pipe", input ? "inherit" : "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (r.error) throw new SetupError(`cannot run wrangler: ${r.error.message} (run npm run setup)`);
  if (r.status !== 0)
    throw new SetupError(
      `wrangler ${args.slice(0, 3).join(" ")} failed: ${(r.stderr || r.stdout).trim().split("\n").at(-1)}`,
    );
  return r.stdout ?? "";
}

/** A JSON array out of wrangler's output (it may print a banner first). */
function jsonList(text: string | null): Record<string, unknown>[] {
  if (text === null) return [];
  const at = text.indexOf("[");
  if (at < 0) throw new SetupError("wrangler did not answer a JSON list");
  return JSON.parse(text.slice(at)) as Record<string, unknown>[];
}

/** The id in the config snippet `wrangler … create` prints (TOML or JSON). */
function createdId(text: string | null, key: string): string {
  if (text === null) return "<new id>";
  const id = new RegExp(`"?${key}"?\\s*[=:]\\s*"([0-9a-fA-F-]{32,36})"`).exec(text)?.[1];
  if (!id) throw new SetupError(`could not read the new ${key} from wrangler's answer`);
  return id;
}

function record(table: string, binding: string, key: string, id: string): void {
  if (dryRun) return console.log(`would write ${key} = "${id}" for ${binding} into ${configPath}`);
  if (writeId(configPath, table, binding, key, id)) console.log(`wrote ${key} for ${binding} into ${configPath}`);
}

function setUpD1(): string[] {
  const { d1 } = readResources(configPath);
  if (d1.length === 0) throw new SetupError(`${configPath} declares no [[env.production.d1_databases]]`);
  const existing = jsonList(wrangler(["d1", "list", "--json"]));
  for (const db of d1) {
    const found = existing.find((e) => e.name === db.name);
    if (found) console.log(`D1 ${db.name}: exists`);
    const id = found ? String(found.uuid) : createdId(wrangler(["d1", "create", db.name]), "database_id");
    if (isPlaceholder(db.id) || db.id !== id) record("d1_databases", db.binding, "database_id", id);
  }
  return d1.map((db) => db.binding);
}

/**
 * An existing index must have the embedder's dimensions and cosine: Vectorize fixes both when the
 * index is created, and a mismatch fails every upsert and query once deployed.
 */
function checkIndexShape(name: string, index: Record<string, unknown>): void {
  const config = (index.config ?? {}) as { dimensions?: unknown; metric?: unknown };
  const dims = Number(config.dimensions);
  const metric = String(config.metric ?? "unknown");
  if (dims === VECTOR_DIMENSIONS && metric === VECTOR_METRIC)
    return console.log(`Vectorize ${name}: exists (${dims} dimensions, ${metric})`);
  throw new SetupError(
    `Vectorize index ${name} exists with ${Number.isFinite(dims) ? dims : "unknown"} dimensions and metric ${metric}, ` +
      `but EMBEDDING_MODEL @cf/baai/bge-m3 needs ${VECTOR_DIMENSIONS} dimensions and ${VECTOR_METRIC}. ` +
      `An index's dimensions and metric cannot change: delete it (npx wrangler vectorize delete ${name}) ` +
      `or set another index_name in [[env.production.vectorize]] of ${configPath}, then run npm run setup again`,
  );
}

/** Every Vectorize index the config names (one per shard with its own, docs/shards.md), each with its `owner` metadata index. */
function setUpVectorize(): void {
  const indexes = readResources(configPath).vectorize;
  if (indexes.length === 0) return console.log("no [[env.production.vectorize]]: skipped");
  const existing = jsonList(wrangler(["vectorize", "list", "--json"]));
  for (const vec of indexes) {
    const found = existing.find((i) => i.name === vec.index);
    if (found) checkIndexShape(vec.index, found);
    else wrangler(["vectorize", "create", vec.index, `--dimensions=${VECTOR_DIMENSIONS}`, `--metric=${VECTOR_METRIC}`]);
    const metadata = jsonList(wrangler(["vectorize", "list-metadata-index", vec.index, "--json"]));
    if (metadata.some((m) => m.propertyName === "owner"))
      console.log(`Vectorize ${vec.index}: owner metadata index exists`);
    else wrangler(["vectorize", "create-metadata-index", vec.index, "--propertyName=owner", "--type=string"]);
  }
}

/**
 * The OAuth namespace: the one wrangler.toml already names (its grants and clients live there), else
 * the one titled OAUTH_KV_TITLE, else one made by hand under an older title; created only when none is.
 */
function setUpKv(): void {
  const kv = readResources(configPath).kv;
  if (!kv) return console.log("no OAUTH_KV in [env.production]: OAuth stays off");
  const namespaces = jsonList(wrangler(["kv", "namespace", "list"]));
  const byId = isPlaceholder(kv.id) ? undefined : namespaces.find((n) => n.id === kv.id);
  const found =
    byId ??
    namespaces.find((n) => n.title === OAUTH_KV_TITLE) ??
    namespaces.find((n) => LEGACY_KV_TITLES.includes(String(n.title)));
  if (found) console.log(`KV ${String(found.title)}: exists${byId ? " (the id in the config)" : ""}`);
  else if (!isPlaceholder(kv.id))
    console.log(`KV: the id in ${configPath} (${kv.id}) is not in this account; creating ${OAUTH_KV_TITLE}`);
  const id = found ? String(found.id) : createdId(wrangler(["kv", "namespace", "create", OAUTH_KV_TITLE]), "id");
  if (isPlaceholder(kv.id) || kv.id !== id) record("kv_namespaces", kv.binding, "id", id);
}

/**
 * Rate-limit namespace ids are unique per account (the docs' rate-limit page); the template carries the
 * docs' examples, which another Worker of the account may already use. Each example id is replaced by a
 * random one (1 in ~2 billion of meeting another), once: an id already replaced is kept.
 */
function setUpRateLimits(): void {
  const used = new Set<string>();
  for (const r of readResources(configPath).ratelimits) {
    if (!EXAMPLE_RATELIMIT_IDS.includes(r.namespaceId) && !used.has(r.namespaceId)) {
      used.add(r.namespaceId);
      console.log(`rate limit ${r.name}: namespace_id ${r.namespaceId}`);
      continue;
    }
    let id = String(randomInt(100_000, 2_147_483_647));
    while (used.has(id) || EXAMPLE_RATELIMIT_IDS.includes(id)) id = String(randomInt(100_000, 2_147_483_647));
    used.add(id);
    if (dryRun) console.log(`would write namespace_id = "<a random id>" for ${r.name} into ${configPath}`);
    else if (writeId(configPath, "ratelimits", r.name, "namespace_id", id, "name"))
      console.log(`wrote namespace_id ${id} for ${r.name} into ${configPath} (was ${r.namespaceId}, an example id)`);
  }
}

/** Optional secrets: asked for when a person is at the terminal, else the command to run later. */
function offerSecrets(): void {
  for (const [name, why] of SECRETS) {
    if (process.stdin.isTTY && !dryRun) {
      console.log(`secret ${name} (optional: ${why}) — type it, or press Ctrl-C to skip`);
      wrangler(["secret", "put", name, "--env", PRODUCTION_ENV], "inherit");
    } else console.log(`secret ${name} (optional: ${why}): npx wrangler secret put ${name} --env ${PRODUCTION_ENV}`);
  }
}

/**
 * --plan free: the free profile's vars written into [env.production.vars], the Vectorize tables and
 * the CPU limit (Free's 10 ms cannot be raised) commented out. Idempotent.
 */
function applyFreeProfile(): void {
  for (const [key, value] of Object.entries(FREE_PROFILE_VARS)) {
    if (dryRun) console.log(`would set ${key} = "${value}" in [env.production.vars] of ${configPath}`);
    else if (setProductionVar(configPath, key, value)) console.log(`set ${key} = "${value}" in [env.production.vars]`);
  }
  for (const table of ["[[env.production.vectorize]]", "[env.production.limits]"]) {
    if (dryRun) console.log(`would comment out ${table} in ${configPath}`);
    else if (commentOutProductionTable(configPath, table)) console.log(`commented out ${table} (free profile)`);
  }
}

function main(): void {
  console.log(
    `setup${dryRun ? " (dry run: nothing is run)" : ""}: Cloudflare resources for ${configPath}, Workers ${plan === "free" ? "Free (the free profile)" : "Paid"}`,
  );
  wrangler(["whoami"]);
  if (plan === "free") applyFreeProfile();
  const databases = setUpD1();
  if (plan === "paid") setUpVectorize();
  else console.log("Vectorize: not used by the free profile (VECTOR_INDEX=local)");
  setUpKv();
  setUpRateLimits();
  for (const binding of databases)
    wrangler(["d1", "migrations", "apply", binding, "--remote", "--env", PRODUCTION_ENV]);
  offerSecrets();
  console.log("setup: done. Next: npm run deploy:check, then npm run deploy");
}

try {
  main();
} catch (err) {
  console.error(`setup: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
