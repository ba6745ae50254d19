/**
 * @module scripts/lib/wrangler-kv
 * Reads and deletes keys in the OAUTH_KV namespace through the wrangler CLI, for the operator
 * scripts. Same targets as wrangler-d1.ts: the offline dev namespace (env dev, .wrangler/state) or
 * the deployed one (--remote). Bulk commands take a JSON file, written to a private temp dir.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { failureText, ScriptError, type Target, targetArgs, wrangler } from "./wrangler-d1.ts";

const BINDING = ["--binding", "OAUTH_KV"];
/** Cloudflare's bulk endpoints take at most 100 keys per call for reads. */
const BULK_CHUNK = 100;

export interface KvKey {
  name: string;
  expiration?: number;
  metadata?: unknown;
}

function parseJson(stdout: string, what: string): unknown {
  const start = stdout.search(/[[{]/);
  try {
    return JSON.parse(stdout.slice(Math.max(0, start)));
  } catch {
    throw new ScriptError(`unexpected output from wrangler kv ${what} (not JSON)`);
  }
}

function run(args: string[], target: Target, what: string): string {
  const result = wrangler(["kv", ...args, ...BINDING, ...targetArgs(target)]);
  if (result.status !== 0) throw new ScriptError(`KV ${what} (${target}) failed: ${failureText(result)}`);
  return result.stdout;
}

/** Runs `fn` with a JSON file holding `body`, then removes the file. */
function withJsonFile<T>(body: unknown, fn: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-kv-"));
  try {
    const path = join(dir, "keys.json");
    writeFileSync(path, JSON.stringify(body), { mode: 0o600 });
    return fn(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every key under `prefix` (wrangler follows the cursor itself). */
export function listKvKeys(prefix: string, target: Target): KvKey[] {
  const parsed = parseJson(run(["key", "list", "--prefix", prefix], target, "key list"), "key list");
  return Array.isArray(parsed) ? (parsed as KvKey[]) : [];
}

/** Values of the given keys; a missing key maps to null. */
export function getKvValues(keys: string[], target: Target): Map<string, string | null> {
  const values = new Map<string, string | null>();
  for (let i = 0; i < keys.length; i += BULK_CHUNK) {
    const chunk = keys.slice(i, i + BULK_CHUNK);
    const stdout = withJsonFile(chunk, (path) => run(["bulk", "get", path], target, "bulk get"));
    const parsed = parseJson(stdout, "bulk get") as Record<string, { value: string | null } | undefined>;
    for (const key of chunk) values.set(key, parsed[key]?.value ?? null);
  }
  return values;
}

export function deleteKvKeys(keys: string[], target: Target): void {
  for (let i = 0; i < keys.length; i += BULK_CHUNK) {
    const chunk = keys.slice(i, i + BULK_CHUNK);
    withJsonFile(chunk, (path) => run(["bulk", "delete", path, "--force"], target, "bulk delete"));
  }
}
