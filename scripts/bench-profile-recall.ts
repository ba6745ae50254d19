/**
 * @module scripts/bench-profile-recall
 * Where a recall's time goes inside the runtime: starts the Worker offline (wrangler dev --local,
 * an inspector port of its own), loads the synthetic memories bench:compare loads, then CPU-profiles
 * the same two-word recalls through V8's inspector (Chrome DevTools Protocol `Profiler`) and prints
 * the functions with the most self time, grouped by source file, beside the Server-Timing phases
 * (D1 time, index, rank, total) of the profiled recalls. The whole profile is written as a
 * `.cpuprofile` (open it in Chrome DevTools) when `--out` names a file.
 *
 *   npm run bench:profile -- [--size 100000] [--recalls 200] [--top 30] [--out recall.cpuprofile]
 *
 * The profiler's sampling slows the isolate a little: compare shares of time, not milliseconds
 * with bench:compare. Ports: BENCH_PORT / BENCH_INSPECTOR_PORT as for bench:recall.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { percentile } from "./lib/bench-metrics.ts";
import { connect, importMemories, recall } from "./lib/bench-run.ts";
import { phraseQueries, syntheticMemories } from "./lib/bench-synthetic.ts";
import { startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const say = (text: string) => process.stderr.write(`profile: ${text}\n`);

const USAGE =
  "usage: npm run bench:profile -- [--size 100000] [--recalls 200] [--top 30] [--out recall.cpuprofile] [--keep]";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** A minimal CDP session over the inspector's WebSocket (Node's global WebSocket). */
class Inspector {
  private next = 1;
  private readonly waiting = new Map<number, (v: unknown) => void>();
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: unknown };
      if (msg.id !== undefined) this.waiting.get(msg.id)?.(msg.error ? { error: msg.error } : msg.result);
    });
  }

  static async open(url: string): Promise<Inspector> {
    // wrangler's inspector proxy wants a local Origin from a client that names itself (undici takes headers here).
    const init = { headers: { Origin: "http://localhost" } } as unknown as string[];
    const ws = new WebSocket(url, init);
    await new Promise<void>((done, fail) => {
      ws.addEventListener("open", () => done(), { once: true });
      ws.addEventListener("error", () => fail(new Error(`inspector ${url} refused`)), { once: true });
    });
    return new Inspector(ws);
  }

  /** One CDP command; its answer, or a ScriptError after a minute without one. */
  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new ScriptError(`inspector: no answer to ${method}`)), 60_000);
      this.waiting.set(id, (v) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        const error = (v as { error?: { message?: string } } | undefined)?.error;
        if (error) fail(new ScriptError(`inspector: ${method} failed: ${error.message ?? "?"}`));
        else done(v as T);
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * The source module of each line of wrangler's bundle: esbuild marks where each module starts with a
 * `// src/…` (or `// node_modules/…`) comment line.
 */
function bundleModules(appDir: string): (line: number) => string | null {
  const tmp = join(appDir, ".wrangler", "tmp");
  const bundle = existsSync(tmp)
    ? readdirSync(tmp, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith("index.js"))
    : undefined;
  if (!bundle) return () => null;
  const starts: { line: number; module: string }[] = [];
  readFileSync(join(tmp, bundle), "utf8")
    .split("\n")
    .forEach((text, i) => {
      const m = /^\/\/ ((?:src|node_modules|\.\.)\/\S+)$/.exec(text);
      if (m) starts.push({ line: i, module: m[1].replace(/^(\.\.\/)+/, "") });
    });
  return (line) => {
    let lo = 0;
    let hi = starts.length - 1;
    let found: string | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid].line <= line) {
        found = starts[mid].module;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

interface Times {
  /** Self time per function and per file, and total time per function (itself and what it calls), in ms. */
  fn: Map<string, number>;
  file: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
}

/** Times from the profile's samples. */
function selfTimes(p: Profile, moduleOf: (line: number) => string | null): Times {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nameOf = (node: ProfileNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const bundled = url.endsWith("index.js") ? moduleOf(lineNumber) : null;
    const where = bundled ?? (url ? url.replace(/^.*\//, "") : "");
    return { where, key: `${functionName || "(anonymous)"} ${where}${where ? `:${lineNumber + 1}` : ""}` };
  };
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms);
  let total = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node) return;
    total += ms;
    const { where, key } = nameOf(node);
    add(fn, key, ms);
    add(file, where || node.callFrame.functionName, ms);
    // Each function on the sample's stack once (recursion counts once).
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame) onStack.add(nameOf(frame).key);
    }
    for (const k of onStack) add(inclusive, k, ms);
  });
  return { fn, file, inclusive, total };
}

function top(m: Map<string, number>, n: number, total: number): string[] {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${k}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: "string", default: "100000" },
      recalls: { type: "string", default: "200" },
      top: { type: "string", default: "30" },
      out: { type: "string" },
      keep: { type: "boolean", default: false },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const size = Number(values.size);
  const recalls = Number(values.recalls);
  if (!Number.isInteger(size) || size < 100) throw new ScriptError("--size must be an integer ≥ 100");
  if (!Number.isInteger(recalls) || recalls < 1) throw new ScriptError("--recalls must be a positive integer");
  if (!Number.isInteger(Number(values.top)) || Number(values.top) < 1)
    throw new ScriptError("--top must be a positive integer");
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-profile-"));
  const inspectorPort = Number(process.env.BENCH_INSPECTOR_PORT) || (await freePort());
  setLocalPersistDir(dir);
  applyMigrations("local");
  const { key } = await createKey({ scope: "app", name: "profile", account: "bench", label: "bench:profile" }, "local");
  const server = await startLocalServer(dir, { inspectorPort });
  try {
    const direct = (await server.directBase()) ?? server.base;
    const client = await connect(direct, key);
    const set = syntheticMemories(size);
    const queries = phraseQueries(set, recalls).map((q) => q.query);
    say(`importing ${set.memories.length}`);
    await importMemories(client, "profile-user", set.memories);
    for (const q of queries.slice(0, 20)) await recall(client, "profile-user", q);
    const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
      webSocketDebuggerUrl?: string;
      title?: string;
    }[];
    const target = targets.find((t) => t.webSocketDebuggerUrl);
    if (!target?.webSocketDebuggerUrl) throw new ScriptError("no inspector target");
    say(`profiling ${recalls} recalls (${target.title ?? "worker"})`);
    const inspector = await Inspector.open(target.webSocketDebuggerUrl);
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
    await inspector.send("Profiler.start");
    const totals: number[] = [];
    const d1: number[] = [];
    const d1Sql: number[] = [];
    const rank: number[] = [];
    const index: number[] = [];
    const started = performance.now();
    for (const q of queries) {
      const r = await recall(client, "profile-user", q);
      totals.push(r.server?.dur.total ?? Number.NaN);
      d1.push(r.server?.dur.d1 ?? Number.NaN);
      d1Sql.push(r.server?.dur["d1-sql"] ?? Number.NaN);
      rank.push(r.server?.dur.rank ?? 0);
      index.push(r.server?.dur.index ?? 0);
    }
    const wall = performance.now() - started;
    const { profile } = await inspector.send<{ profile: Profile }>("Profiler.stop");
    inspector.close();
    await client.client.close().catch(() => undefined);
    if (values.out) writeFileSync(values.out, JSON.stringify(profile));
    const { fn, file, inclusive, total } = selfTimes(profile, bundleModules(join(dir, "app")));
    const n = Number(values.top);
    const pc = (xs: number[]) => `${percentile(xs, 50)} / ${percentile(xs, 95)}`;
    console.log(`${size} memories, ${recalls} recalls, ${(wall / recalls).toFixed(1)} ms wall each (client)`);
    console.log(
      `Server-Timing p50 / p95 ms: total ${pc(totals)}, d1 ${pc(d1)} (D1's own execution, d1-sql: ${pc(d1Sql)}), index ${pc(index)}, rank ${pc(rank)}`,
    );
    console.log(`isolate samples: ${total.toFixed(0)} ms (${(total / recalls).toFixed(2)} ms per recall)`);
    console.log("\nself time by file:");
    for (const line of top(file, n, total)) console.log(line);
    console.log("\nself time by function:");
    for (const line of top(fn, n, total)) console.log(line);
    console.log("\ntotal time by function (itself and what it calls):");
    for (const line of top(inclusive, n * 2, total)) console.log(line);
  } finally {
    await server.stop();
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ScriptError ? err.message : String(err)}\n`);
  process.exit(1);
});
