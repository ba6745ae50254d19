/**
 * @module scripts/setup
 * `npm run setup [-- --dry-run] [--config wrangler.toml]`: the Cloudflare resources a deployment
 * needs, created or found, and their ids written into wrangler.toml's [env.production] — the D1 database(s),
 * the Vectorize index with its `owner` metadata index, the OAuth KV namespace — then the migrations
 * applied to each database and the secrets offered. Idempotent and resumable: every step looks for
 * what exists first (by name), so a second run, or one after a failure, only does what is left.
 * `--dry-run` prints every wrangler command it would run and runs none. Needs `npx wrangler login`.
 * Then: `npm run deploy:check` and `npm run deploy`.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { isPlaceholder, PRODUCTION_ENV, readResources, writeId } from "./lib/setup-config.ts";

class SetupError extends Error {}

const VECTOR_DIMENSIONS = 1024; // bge-m3, the production EMBEDDING_MODEL
const KV_TITLE = "hippocampus-oauth";
const SECRETS = [
  ["OAUTH_PASSPHRASE", "single-user sign-in on the OAuth page (12+ characters)"],
  ["ADMIN_SECRET", "enables /admin/shards for npm run shards (32+ characters)"],
] as const;

const { values } = parseArgs({
  options: { "dry-run": { type: "boolean" }, config: { type: "string" }, help: { type: "boolean" } },
});
const dryRun = values["dry-run"] ?? false;
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

function setUpVectorize(): void {
  const vec = readResources(configPath).vectorize;
  if (!vec) return console.log("no [[env.production.vectorize]]: skipped");
  const found = jsonList(wrangler(["vectorize", "list", "--json"])).some((i) => i.name === vec.index);
  if (found) console.log(`Vectorize ${vec.index}: exists`);
  else wrangler(["vectorize", "create", vec.index, `--dimensions=${VECTOR_DIMENSIONS}`, "--metric=cosine"]);
  const indexes = jsonList(wrangler(["vectorize", "list-metadata-index", vec.index, "--json"]));
  if (indexes.some((m) => m.propertyName === "owner"))
    console.log(`Vectorize ${vec.index}: owner metadata index exists`);
  else wrangler(["vectorize", "create-metadata-index", vec.index, "--propertyName=owner", "--type=string"]);
}

function setUpKv(): void {
  const kv = readResources(configPath).kv;
  if (!kv) return console.log("no OAUTH_KV in [env.production]: OAuth stays off");
  const found = jsonList(wrangler(["kv", "namespace", "list"])).find((n) => n.title === KV_TITLE);
  if (found) console.log(`KV ${KV_TITLE}: exists`);
  const id = found ? String(found.id) : createdId(wrangler(["kv", "namespace", "create", KV_TITLE]), "id");
  if (isPlaceholder(kv.id) || kv.id !== id) record("kv_namespaces", kv.binding, "id", id);
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

function main(): void {
  console.log(`setup${dryRun ? " (dry run: nothing is run)" : ""}: Cloudflare resources for ${configPath}`);
  wrangler(["whoami"]);
  const databases = setUpD1();
  setUpVectorize();
  setUpKv();
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
