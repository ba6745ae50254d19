/**
 * @module scripts/dev
 * `npm run dev [-- extra wrangler dev args]`: the offline development server.
 * Prepares the local D1 databases (migrations on the home database and each shard, a first API key
 * for user "local"), starts
 * `wrangler dev --env dev --local` on 127.0.0.1, and once it answers HTTP prints where to connect.
 * Everything runs on the local adapters: no Cloudflare account is needed. `--remote-ai` runs env
 * `dev-remote` instead: the same local storage, with Workers AI through a remote binding (bge-m3,
 * the reranker, the language model; needs `npx wrangler login`, usage is billed).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { constants } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { devAdminSecret } from "./lib/admin-secret.ts";
import { createKey, hasUsableKey } from "./lib/api-keys.ts";
import { bannerTitle, exitHint, type HealthView } from "./lib/dev-banner.ts";
import { clearDevUrl, recordDevUrl } from "./lib/dev-url.ts";
import { localRuntimeEnv } from "./lib/local-runtime.ts";
import { applyMigrations, ScriptError } from "./lib/wrangler-d1.ts";

const DEFAULT_PORT = 8787;
const DEFAULT_IP = "127.0.0.1";
const LOCAL_USER = "local";

/** Value of `--name N` or `--name=N` among the extra args. */
function optionValue(args: string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
  }
  return undefined;
}

/** Our own flag, not wrangler's: real Workers AI models through a remote binding (env dev-remote). */
const REMOTE_AI_FLAG = "--remote-ai";

/** The wrangler env `npm run dev` runs, and the extra args without our own flag. */
function devEnvironment(extra: string[]): { env: "dev" | "dev-remote"; rest: string[] } {
  const remote = extra.includes(REMOTE_AI_FLAG);
  return { env: remote ? "dev-remote" : "dev", rest: extra.filter((a) => a !== REMOTE_AI_FLAG) };
}

/** Builds wrangler's argv; --ip/--port are added only when not given, since wrangler rejects repeats. */
function wranglerArgs(all: string[]): { args: string[]; host: string; port: number; env: string } {
  const { env, rest: extra } = devEnvironment(all);
  const ip = optionValue(extra, "--ip");
  const portText = optionValue(extra, "--port");
  const port = portText === undefined ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new ScriptError(`invalid --port ${JSON.stringify(portText)}`);
  // The admin routes (npm run shards) answer the secret kept in .wrangler/admin-secret.
  // env dev stays fully local (--local); dev-remote needs wrangler's remote binding for AI.
  const where = env === "dev" ? ["--local"] : [];
  const args = ["dev", "--env", env, ...where, "--test-scheduled", "--var", `ADMIN_SECRET:${devAdminSecret()}`];
  if (ip === undefined) args.push("--ip", DEFAULT_IP);
  // An explicit port: wrangler would otherwise silently pick another one when 8787 is taken.
  if (portText === undefined) args.push("--port", String(port));
  // A wildcard bind is still reachable on loopback, which is what the banner and the poll use.
  const host = ip === undefined || ip === "0.0.0.0" || ip === "::" ? DEFAULT_IP : ip;
  return { args: [...args, ...extra], host, port, env };
}

/** True when nothing listens on host:port, so a later HTTP answer really comes from our wrangler. */
function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** Migrations, then a first key when no usable one exists. Returns the key if one was just created. */
async function prepareDatabase(): Promise<string | null> {
  console.log("dev: applying local D1 migrations (env dev)...");
  applyMigrations("local");
  if (hasUsableKey("local")) return null;
  const { id, key } = await createKey(
    { scope: "user", name: LOCAL_USER, account: "default", label: "npm run dev" },
    "local",
  );
  console.log(`dev: no usable API key found; created ${id} for user ${LOCAL_USER} (shown once the server is up).`);
  return key;
}

/** Polls /health until any HTTP answer (the Worker may not route it yet); false if wrangler exits first. */
async function waitUntilListening(base: string, child: ChildProcess): Promise<boolean> {
  while (child.exitCode === null && child.signalCode === null) {
    try {
      await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      await sleep(300);
    }
  }
  return false;
}

function keyLines(newKey: string | null): string[] {
  if (newKey === null) {
    return [
      "  API key:  none created (one already exists; keys are shown only once).",
      "            Create one: npm run keys -- create --user <id>",
    ];
  }
  return [`  API key:  ${newKey}`, `            (user ${LOCAL_USER}, account default — new, shown only this once)`];
}

/** What the server says it runs on (GET /health), or null when it does not answer in time. */
async function healthOf(base: string): Promise<HealthView | null> {
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(10_000) });
    return (await res.json()) as HealthView;
  } catch {
    return null;
  }
}

function printBanner(base: string, newKey: string | null, env: string, health: HealthView | null): void {
  const rule = "─".repeat(72);
  console.log(
    [
      "",
      rule,
      bannerTitle(env, health),
      `  MCP:      ${base}/mcp   (Streamable HTTP)`,
      `  SSE:      ${base}/sse   (legacy transport)`,
      `  Dashboard: ${base}/dashboard   (sign in with a user key)`,
      `  Cron:     ${base}/__scheduled?cron=*/15+*+*+*+*`,
      `  Shards:   npm run shards -- list --url ${base}   (two local D1 shards, docs/shards.md)`,
      "  Export / import: npm run export / npm run import use this server (its URL is in .wrangler/dev-url)",
      ...keyLines(newKey),
      "  Clients send:  Authorization: Bearer <key>",
      `  OAuth:    clients that sign in (Cursor, Claude Desktop) discover it from ${base}/mcp;`,
      "            on the sign-in page, paste a user key.",
      rule,
      "",
    ].join("\n"),
  );
}

/** Ctrl-C / SIGTERM go to wrangler so it can stop workerd cleanly; we exit when it does. */
function superviseChild(child: ChildProcess, onExit: () => void): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) => {
    onExit();
    process.exit(code ?? (signal ? 128 + constants.signals[signal] : 1));
  });
}

async function main(extra: string[]): Promise<void> {
  const { args, host, port, env: wranglerEnv } = wranglerArgs(extra);
  if (!(await portFree(host, port))) {
    throw new ScriptError(`port ${port} on ${host} is already in use: stop that server or pass -- --port <n>`);
  }
  const newKey = await prepareDatabase();
  const base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  // No Request.cf fetch from the network (offline dev; it only logs a stack trace when offline) unless asked.
  // The local runtime's V8 flags (scripts/lib/local-runtime.ts): the same runtime the benchmarks measure.
  const env = { CLOUDFLARE_CF_FETCH_ENABLED: "false", ...localRuntimeEnv(process.env), WRANGLER_SEND_METRICS: "false" };
  const child = spawn("wrangler", args, { stdio: "inherit", env });
  child.on("error", (err) =>
    fail(new ScriptError(`cannot start wrangler: ${err.message} (run it through npm run dev)`)),
  );
  let shown = false;
  let listening = false;
  superviseChild(child, () => {
    clearDevUrl(base);
    // The key exists only in memory now: never lose it, even if the server failed to start.
    if (!shown && newKey !== null) console.log(`dev: API key created for user ${LOCAL_USER}: ${newKey}`);
    const hint = exitHint(wranglerEnv, listening);
    if (hint) console.error(hint);
  });
  if (await waitUntilListening(base, child)) {
    listening = true;
    recordDevUrl(base);
    printBanner(base, newKey, wranglerEnv, await healthOf(base));
    shown = true;
  }
}

function fail(err: unknown): never {
  console.error(`dev: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}

main(process.argv.slice(2)).catch(fail);
