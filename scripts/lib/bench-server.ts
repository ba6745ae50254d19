/**
 * @module scripts/lib/bench-server
 * A throwaway offline server for a benchmark: a fresh state directory, migrated, with an app-scoped
 * key in account "bench" (or the key owner asked for), the Worker started on it (local-server, with any extra wrangler vars) and,
 * for withServer, an MCP client connected; all of it stopped and removed afterwards unless `keep` is
 * set. Every benchmark that starts a server goes through here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey, type KeyOwner } from "./api-keys.ts";
import { connect, type Server } from "./bench-run.ts";
import { startLocalServer } from "./local-server.ts";
import { applyMigrations, setLocalPersistDir } from "./wrangler-d1.ts";

export const say = (text: string) => process.stderr.write(`bench: ${text}\n`);

export interface BenchServerOptions {
  /** Keep the state directory afterwards (its path and the server log are printed). */
  keep?: boolean;
  /** Name of the app key (account "bench"). */
  keyName?: string;
  /** Whose key to create instead of that app key (e.g. a user key). */
  keyOwner?: KeyOwner;
  /** Wrangler vars the server starts with (e.g. IMPORT_BATCH_ROWS). */
  vars?: Record<string, string>;
  /** How long the server may take to come up. */
  timeoutMs?: number;
  /** The Worker's inspector port (to read its heap); else BENCH_INSPECTOR_PORT, else none. */
  inspectorPort?: number;
  /** Runs on the migrated state before the server starts (e.g. seeding D1 directly). */
  prepare?: (dir: string) => void;
}

/** A running benchmark server: its URL, the app key, its state directory and workerd's RSS per process. */
export interface BenchServer {
  base: string;
  key: string;
  dir: string;
  rss: () => number[];
}

/** Runs `work` against a fresh server over HTTP; everything is stopped and removed afterwards unless `keep`. */
export async function withBenchServer<T>(
  options: BenchServerOptions,
  work: (s: BenchServer) => Promise<T>,
): Promise<T> {
  const { keep = false, keyName = "bench", vars, timeoutMs, inspectorPort, prepare } = options;
  const owner = options.keyOwner ?? { scope: "app", name: keyName, account: "bench", label: `benchmark ${keyName}` };
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-"));
  setLocalPersistDir(dir);
  say(`state in ${dir}; applying migrations and creating ${owner.scope === "app" ? "an app" : "a user"} key…`);
  applyMigrations("local");
  const { key } = await createKey(owner, "local");
  prepare?.(dir);
  const server = await startLocalServer(dir, { vars, timeoutMs, inspectorPort });
  say(`server up at ${server.base}`);
  try {
    return await work({ base: server.base, key, dir, rss: () => server.workerdRss() });
  } finally {
    await server.stop();
    if (keep) say(`kept ${dir} (log: ${server.logFile})`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `work` against a fresh server with an MCP client connected; `rss` reads workerd's resident memory per process. */
export function withServer<T>(
  keep: boolean,
  work: (s: Server, rss: () => number[]) => Promise<T>,
  keyName = "bench",
  vars: Record<string, string> = {},
): Promise<T> {
  return withBenchServer({ keep, keyName, vars }, async (b) => {
    const s = await connect(b.base, b.key);
    try {
      return await work(s, b.rss);
    } finally {
      await s.client.close().catch(() => undefined);
    }
  });
}
