/**
 * @module scripts/lib/dashboard-server
 * A throwaway offline server for the browser tests and `npm run screenshots`: a fresh state
 * directory (its own D1, KV and Durable Objects), migrations, one user key, `wrangler dev` on it
 * (scripts/lib/local-server.ts, stopped by process group), and an MCP SDK client that writes
 * memories through the public /mcp endpoint the way an agent does.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createKey } from "./api-keys.ts";
import { type LocalServer, type StartOptions, startLocalServer } from "./local-server.ts";
import { applyMigrations, setLocalPersistDir } from "./wrangler-d1.ts";

export interface SavedMemory {
  id: string;
  status: string;
}

export interface DashboardServer {
  base: string;
  /** The state directory (also a place for downloads); removed by stop(). */
  dir: string;
  userId: string;
  /** A user key of userId, for signing in. */
  key: string;
  /** save_memory through /mcp as an agent holding `key`. */
  save(content: string, extra?: Record<string, unknown>): Promise<SavedMemory>;
  /** Any tool through /mcp; returns its structured content. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  logFile: string;
  stop(): Promise<void>;
}

async function connect(base: string, key: string): Promise<Client> {
  const client = new Client({ name: "hippocampus-dashboard-harness", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

export async function startDashboardServer(
  userId: string,
  options: StartOptions & { keep?: boolean } = {},
): Promise<DashboardServer> {
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-dashboard-"));
  let server: LocalServer | null = null;
  let client: Client | null = null;
  const stop = async () => {
    await client?.close().catch(() => undefined);
    await server?.stop();
    setLocalPersistDir(null);
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    setLocalPersistDir(dir);
    applyMigrations("local");
    const { key } = await createKey({ scope: "user", name: userId, account: "default", label: "dashboard" }, "local");
    server = await startLocalServer(dir, { timeoutMs: 180_000, ...options });
    const mcp = await connect(server.base, key);
    client = mcp;
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await mcp.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      return (result.structuredContent ?? {}) as Record<string, unknown>;
    };
    const save = async (content: string, extra: Record<string, unknown> = {}) => {
      const out = await call("save_memory", { content, ...extra });
      return { id: String(out.id), status: String(out.status) };
    };
    return { base: server.base, dir, userId, key, save, call, logFile: server.logFile, stop };
  } catch (err) {
    const log = join(dir, "wrangler-dev.log");
    // The state directory goes with stop(): keep the end of wrangler's log with the error.
    if (existsSync(log)) process.stderr.write(readFileSync(log, "utf8").split("\n").slice(-30).join("\n"));
    await stop();
    throw err;
  }
}
