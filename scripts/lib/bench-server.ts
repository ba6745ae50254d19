/**
 * @module scripts/lib/bench-server
 * A throwaway offline server for a benchmark: a fresh state directory, migrated, with an app-scoped
 * key in account "bench", the Worker started on it (local-server, with any extra wrangler vars), an
 * MCP client connected; all of it stopped and removed afterwards unless `keep` is set.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey } from "./api-keys.ts";
import { connect, type Server } from "./bench-run.ts";
import { startLocalServer } from "./local-server.ts";
import { applyMigrations, setLocalPersistDir } from "./wrangler-d1.ts";

export const say = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** Runs `work` against a fresh server; `rss` reads workerd's resident memory per process. */
export async function withServer<T>(
  keep: boolean,
  work: (s: Server, rss: () => number[]) => Promise<T>,
  keyName = "bench",
  vars: Record<string, string> = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-bench-"));
  setLocalPersistDir(dir);
  say(`state in ${dir}; applying migrations and creating an app key…`);
  applyMigrations("local");
  const { key } = await createKey(
    { scope: "app", name: keyName, account: "bench", label: `npm run ${keyName}` },
    "local",
  );
  const server = await startLocalServer(dir, { vars });
  say(`server up at ${server.base}`);
  let s: Server | null = null;
  try {
    s = await connect(server.base, key);
    return await work(s, () => server.workerdRss());
  } finally {
    await s?.client.close().catch(() => undefined);
    await server.stop();
    if (keep) say(`kept ${dir} (log: ${server.logFile})`);
    else rmSync(dir, { recursive: true, force: true });
  }
}
