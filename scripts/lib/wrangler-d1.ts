/**
 * @module scripts/lib/wrangler-d1
 * Runs SQL against the D1 binding `DB` through the wrangler CLI, for the operator scripts.
 * Going through wrangler (not opening the SQLite file ourselves) keeps one code path for the local
 * database under .wrangler/state and the deployed one, and lets wrangler arbitrate concurrent access
 * with a running `wrangler dev`.
 * `wrangler` is spawned from PATH: `npm run` puts node_modules/.bin (and its Node 22) first.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import type * as Wrangler from "wrangler";
import { ID_RULE, isPrincipalId, normalizePrincipalId } from "../../src/memory/ids.ts";

/** "local" = the offline dev database (env dev); "remote" = the deployed database (env production). */
export type Target = "local" | "remote";

/** An expected failure: the scripts print its message alone, without a stack trace. */
export class ScriptError extends Error {}

export type Row = Record<string, unknown>;

/**
 * Validates a user id, app name or account (the product's one rule: any script, NFC) before it goes
 * anywhere near SQL, and returns its stored (NFC) form.
 */
export function safeName(what: string, value: string | undefined): string {
  const id = normalizePrincipalId(value ?? "");
  if (!isPrincipalId(id)) throw new ScriptError(`invalid ${what} ${JSON.stringify(value ?? "")}: ${ID_RULE}`);
  return id;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Validates a key id (key_ + hex, as createKey makes them) before it goes anywhere near SQL. */
export function safeKeyId(value: string | undefined): string {
  if (value === undefined || !KEY_ID.test(value))
    throw new ScriptError(`invalid key id ${JSON.stringify(value ?? "")}`);
  return value;
}

/** SQL literal: single quotes doubled, null as NULL. Values are validated by the caller too. */
export function sqlValue(value: string | number | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new ScriptError(`not an integer: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

let localPersistDir: string | null = null;

/**
 * Points every "local" command of this process at a state directory of its own (wrangler's
 * --persist-to) instead of .wrangler/state: the recall benchmark runs on a throwaway database and
 * never touches the developer's. null restores the default.
 */
export function setLocalPersistDir(dir: string | null): void {
  localPersistDir = dir;
}

export function targetArgs(target: Target): string[] {
  // Bindings are not inherited by [env.*]: the deployed database is env production's, the offline one env dev's.
  if (target !== "local") return ["--env", "production", "--remote"];
  return ["--env", "dev", "--local", ...(localPersistDir ? ["--persist-to", localPersistDir] : [])];
}

export interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs wrangler from PATH; shared with wrangler-kv.ts. */
export function wrangler(args: string[], extraEnv: Record<string, string> = {}): Run {
  const r = spawnSync("wrangler", args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...extraEnv },
  });
  if (r.error) {
    const hint =
      (r.error as NodeJS.ErrnoException).code === "ENOENT"
        ? " (run it through `npm run`, which puts node_modules/.bin on PATH)"
        : "";
    throw new ScriptError(`cannot run wrangler: ${r.error.message}${hint}`);
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC
const ANSI = /\x1b\[[0-9;]*m/g;

/** The most useful single line out of a failed wrangler run. */
export function failureText(run: Run): string {
  try {
    const parsed = JSON.parse(run.stdout.slice(Math.max(0, run.stdout.indexOf("{"))));
    if (typeof parsed?.error?.text === "string") return parsed.error.text;
  } catch {
    // not JSON: wrangler failed before running the query (config, auth, ...)
  }
  const lines = `${run.stderr}\n${run.stdout}`
    .replace(ANSI, "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const error = lines.find((l) => l.includes("[ERROR]"));
  return (error ?? lines.at(-1) ?? `wrangler exited with status ${run.status}`).replace(/^✘\s*\[ERROR\]\s*/, "");
}

/**
 * The D1 bindings of the target's configuration (env dev locally, env production remotely): the home
 * database DB first, then every shard (docs/shards.md). Each gets every migration.
 */
export function d1Bindings(target: Target): string[] {
  // Loaded here, not imported: tests import this module inside workerd, where wrangler must not load.
  const api: typeof Wrangler = createRequire(import.meta.url)("wrangler");
  const config = api.unstable_readConfig(
    { config: "wrangler.toml", env: target === "local" ? "dev" : "production" },
    { hideWarnings: true },
  );
  const bindings: string[] = config.d1_databases.map((d: { binding: string }) => d.binding);
  return ["DB", ...bindings.filter((b) => b !== "DB")];
}

/** Applies migrations/ to every D1 database of the target (the home database and each shard); idempotent. */
export function applyMigrations(target: Target): void {
  for (const binding of d1Bindings(target)) {
    // CI=1: wrangler otherwise asks for confirmation before applying.
    const run = wrangler(["d1", "migrations", "apply", binding, ...targetArgs(target)], { CI: "1" });
    if (run.status !== 0)
      throw new ScriptError(`applying D1 migrations to ${binding} (${target}) failed: ${failureText(run)}`);
  }
}

function executeOnce(sql: string, target: Target): Run {
  return wrangler(["d1", "execute", "DB", ...targetArgs(target), "--json", "--command", sql]);
}

/**
 * Executes SQL (one or more statements) and returns the rows of the last statement.
 * A fresh local database gets its migrations applied on first use; a remote one is never migrated
 * implicitly (that is a deliberate deploy step).
 */
export function query(sql: string, target: Target): Row[] {
  let run = executeOnce(sql, target);
  if (run.status !== 0 && /no such table/i.test(failureText(run))) {
    if (target === "remote") {
      throw new ScriptError(
        `${failureText(run)}: apply migrations first (npx wrangler d1 migrations apply DB --remote --env production)`,
      );
    }
    applyMigrations(target);
    run = executeOnce(sql, target);
  }
  if (run.status !== 0) throw new ScriptError(`D1 query (${target}) failed: ${failureText(run)}`);
  return lastRows(run.stdout);
}

function lastRows(stdout: string): Row[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout.slice(Math.max(0, stdout.indexOf("["))));
  } catch {
    throw new ScriptError("unexpected output from wrangler d1 execute (not JSON)");
  }
  const results = Array.isArray(parsed) ? parsed : [];
  const last = results.at(-1) as { results?: Row[] } | undefined;
  return last?.results ?? [];
}
