/**
 * @module scripts/lib/local-server
 * Starts the Worker offline (`wrangler dev --env dev --local`) on 127.0.0.1 and a free port, with
 * its state in a directory of the caller's choosing, and stops it by process group — the wrangler
 * PID alone would leave workerd running. The server runs a snapshot of the project copied next to
 * the state: wrangler dev reloads (and drops in-flight requests) whenever its sources change, and a
 * benchmark must measure one version of the code. A restart on the same state directory reuses that
 * snapshot. Used by the recall benchmark and the reliability run (which also kills it hard).
 *
 * wrangler's local trace collector is off unless asked for (`localTraces`, or X_LOCAL_OBSERVABILITY=true):
 * since wrangler 4.16x, `wrangler dev` streams a span for every request, RPC and D1 call to a
 * collector Durable Object in the same workerd process, which writes them to SQLite — a dev tool
 * with no counterpart in a deployed Worker's request path, measured at about 40% of workerd's CPU
 * per recall at 1,000 memories (docs/benchmarks.md, "Small stores"), and ~80 MB of its RSS over a
 * 100k import ("Where workerd's memory goes"). `npm run dev` keeps it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, createWriteStream, existsSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { localRuntimeEnv } from "./local-runtime.ts";
import { ScriptError } from "./wrangler-d1.ts";

export interface LocalServer {
  base: string;
  /** wrangler's log (stdout and stderr), for when something goes wrong. */
  logFile: string;
  stop(): Promise<void>;
  /** SIGKILL to the whole process group (wrangler and workerd), as a crash would; resolves once it exited. */
  kill(): Promise<void>;
  /** Resident memory (VmRSS) of each workerd process of this server, in bytes. */
  workerdRss(): number[];
  /** CPU time (user + system) each workerd process of this server has used so far, in ms. */
  workerdCpuMs(): number[];
  /**
   * The Worker's own workerd socket, past wrangler's dev proxy (a second workerd that forwards
   * every request), or null when it cannot be found. Linux only (/proc).
   */
  directBase(): Promise<string | null>;
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new ScriptError(`wrangler dev exited early; see ${logFile}`);
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new ScriptError(`wrangler dev did not answer /health within ${timeoutMs / 1000} s; see ${logFile}`);
}

/** PIDs of processes in process group `pgid` whose command is workerd (Linux /proc). */
function workerdPids(pgid: number): number[] {
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    return pids;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (comm === "workerd" && Number(fields[2]) === pgid) pids.push(Number(pid));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Ports that process `pid` listens on (IPv4 loopback), from /proc/<pid>/net/tcp and its socket fds. */
function listeningPorts(pid: number): number[] {
  try {
    const inodes = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
          return m ? [m[1]] : [];
        } catch {
          return [];
        }
      }),
    );
    return readFileSync(`/proc/${pid}/net/tcp`, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f.length > 9 && f[3] === "0A" && f[1].startsWith("0100007F:") && inodes.has(f[9]))
      .map((f) => Number.parseInt(f[1].slice(9), 16));
  } catch {
    return [];
  }
}

/** The first of `ports` whose GET /health is this Worker's own answer. */
async function findWorkerSocket(ports: number[]): Promise<string | null> {
  for (const port of ports) {
    const base = `http://127.0.0.1:${port}`;
    try {
      const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) });
      const body = res.ok ? ((await res.json()) as { service?: unknown }) : null;
      if (body?.service === "hippocampus") return base;
    } catch {
      // an inspector or debug port: not the Worker
    }
  }
  return null;
}

/** utime + stime of a process in ms (USER_HZ is 100 on Linux). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) * 1024 : 0;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timedOut = await Promise.race([exited.then(() => false), sleep(5000).then(() => true)]);
  if (timedOut) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** What the Worker is built from; node_modules is linked, not copied. */
const SNAPSHOT = ["src", "migrations", "wrangler.toml", "package.json", "tsconfig.json"];

/** Copies the project's sources to `dir` so later edits in the working tree do not reach the server. */
function snapshotProject(dir: string): void {
  if (existsSync(join(dir, "wrangler.toml"))) return; // a restart runs the same snapshot
  const root = process.cwd();
  for (const entry of SNAPSHOT) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  symlinkSync(resolve(root, "node_modules"), join(dir, "node_modules"), "dir");
}

export interface StartOptions {
  timeoutMs?: number;
  /** Port to listen on (default: a free one). */
  port?: number;
  /** Devtools inspector port (default: wrangler's choice). */
  inspectorPort?: number;
  /** Extra wrangler vars for this run (`--var NAME:VALUE`). */
  vars?: Record<string, string>;
  /** Keep wrangler's local trace collector on (default: on only when X_LOCAL_OBSERVABILITY=true). */
  localTraces?: boolean;
}

async function killGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    return;
  }
  await exited;
  // workerd may outlive wrangler by a moment; wait until no process of the group is left.
  for (let i = 0; i < 40 && workerdPids(child.pid).length > 0; i++) await sleep(50);
}

/** Starts wrangler dev on the local adapters with state under `persistDir`; resolves once /health answers. */
export async function startLocalServer(persistDir: string, options: StartOptions = {}): Promise<LocalServer> {
  const { timeoutMs = 90_000 } = options;
  // BENCH_PORT / BENCH_INSPECTOR_PORT pin the ports where several people share one machine.
  const port = options.port ?? (Number(process.env.BENCH_PORT) || (await freePort()));
  const inspectorPort = options.inspectorPort ?? process.env.BENCH_INSPECTOR_PORT;
  const inspector = inspectorPort ? ["--inspector-port", String(inspectorPort)] : [];
  const base = `http://127.0.0.1:${port}`;
  const logFile = join(persistDir, "wrangler-dev.log");
  const log = createWriteStream(logFile, { flags: "a" });
  const appDir = join(persistDir, "app");
  snapshotProject(appDir);
  const args = [
    "dev",
    "--env",
    "dev",
    "--local",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--persist-to",
    resolve(persistDir),
    ...inspector,
    ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ["--var", `${name}:${value}`]),
  ];
  const localTraces = options.localTraces ?? process.env.X_LOCAL_OBSERVABILITY === "true";
  const env = {
    ...localRuntimeEnv(process.env),
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_SEND_METRICS: "false",
    CI: "1",
    // wrangler dev's local trace collector (its dev-only trace viewer, a Durable Object inside the same
    // workerd) keeps a span of every invocation: ~80 MB of workerd's RSS over a 100k import, none of it
    // the Worker's (docs/benchmarks.md "Where workerd's memory goes"). Off unless asked for (see the module header).
    X_LOCAL_OBSERVABILITY: localTraces ? "true" : "false",
  };
  // detached: wrangler leads a process group of its own, which stop() ends as a whole.
  const child = spawn("wrangler", args, { cwd: appDir, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const cleanup = () => void stopGroup(child);
  process.once("exit", cleanup);
  try {
    await waitForHealth(base, child, timeoutMs, logFile);
  } catch (err) {
    await stopGroup(child);
    throw err;
  }
  return {
    base,
    logFile,
    stop: async () => {
      process.removeListener("exit", cleanup);
      await stopGroup(child);
      log.end();
    },
    kill: async () => {
      process.removeListener("exit", cleanup);
      await killGroup(child);
      log.end();
    },
    workerdRss: () => (child.pid === undefined ? [] : workerdPids(child.pid).map(rssBytes)),
    workerdCpuMs: () => (child.pid === undefined ? [] : workerdPids(child.pid).map(cpuMs)),
    directBase: async () => {
      const proxied = new Set([port, Number(inspectorPort)]);
      const ports = (child.pid === undefined ? [] : workerdPids(child.pid))
        .flatMap(listeningPorts)
        .filter((p) => !proxied.has(p));
      return findWorkerSocket(ports);
    },
  };
}
