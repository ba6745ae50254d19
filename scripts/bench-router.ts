/**
 * @module scripts/bench-router
 * The memory router's benchmark (docs/router.md, docs/benchmarks.md "Memory router"):
 *   npm run bench:router -- [--synthetic 1000,10000] [--queries 200] [--data <locomo.json>] [--keep]
 * Starts a fake OpenAI upstream on 127.0.0.1 (it answers at once and notes when each request
 * arrived) and, per size, a fresh offline server (wrangler dev --local) with ROUTER_UPSTREAM_BASE_URL
 * pointing at it and N synthetic memories imported for one user. Every query is then sent three
 * ways, each a fresh conversation's first turn (the costliest: core memories are read too):
 *   - POST /v1/chat/completions with X-Hippocampus-Memory: off (the proxy alone: auth and the hop);
 *   - the same with memory on (read: recall, no saving), the router as a chat app uses it;
 *   - recall_memory over /mcp, recall as an agent calls it: with limit 10 (a plain search), and without
 *     (the first call of a fresh session: progressive injection's stage 1, which reads core memories
 *     beside the search as the router's first turn does).
 * The router's added latency is the time from sending the request to the upstream receiving it
 * (one clock: the fake upstream runs in this process), printed p50/p95 beside recall_memory's own
 * round trip and the server's recall time (Server-Timing `recall`). --data also routes every
 * question of a LoCoMo file as a first turn and prints the share that got memories, and the share
 * whose injected memories hold the question's evidence.
 */

import { readFileSync } from "node:fs";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { type BenchDataset, type BenchQuestion, loadDataset } from "./lib/bench-data.ts";
import { percentile } from "./lib/bench-metrics.ts";
import { importMemories, recall, type Server } from "./lib/bench-run.ts";
import { say, withServer } from "./lib/bench-server.ts";
import { syntheticMemories, syntheticQueries } from "./lib/bench-synthetic.ts";
import { benchRunUser, benchUserId, benchUserIds } from "./lib/bench-users.ts";
import { parseServerTiming } from "./lib/server-timing.ts";
import { ScriptError } from "./lib/wrangler-d1.ts";

const USAGE = "usage: npm run bench:router -- [--synthetic 1000,10000] [--queries 200] [--data <locomo.json>] [--keep]";
const UPSTREAM_KEY = "sk-bench-upstream";

function options() {
  const { values } = parseArgs({
    options: {
      synthetic: { type: "string" },
      data: { type: "string" },
      queries: { type: "string" },
      keep: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const sizes = (values.synthetic ?? (values.data ? "" : "1000,10000")).split(",").filter(Boolean).map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 1_000_000))
    throw new ScriptError(`--synthetic takes sizes like 1000,10000\n${USAGE}`);
  const queries = Number(values.queries ?? 200);
  if (!Number.isInteger(queries) || queries < 1) throw new ScriptError("--queries must be a positive integer");
  return { sizes, queries, data: values.data, keep: values.keep ?? false };
}

/** The fake upstream: answers every chat request at once; notes when each arrived and its system message. */
class BenchUpstream {
  readonly arrivals = new Map<string, { at: number; system: string | null }>();
  private server: HttpServer | null = null;

  get base(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const at = performance.now();
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as {
          metadata?: { bench?: string };
          messages?: { role: string; content: string }[];
        };
        const first = body.messages?.[0];
        if (req.headers.authorization !== `Bearer ${UPSTREAM_KEY}`) throw new Error("the upstream got another key");
        if (body.metadata?.bench)
          this.arrivals.set(body.metadata.bench, { at, system: first?.role === "system" ? first.content : null });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "chatcmpl-bench",
            object: "chat.completion",
            created: 0,
            model: "bench",
            choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}

let sequence = 0;

/** One routed first turn: ms until the upstream had it, the server's recall time, the memories injected. */
async function routed(s: Server, up: BenchUpstream, userId: string, question: string, memory: "off" | "read") {
  const id = `q${++sequence}`;
  const started = performance.now();
  const res = await fetch(`${s.base}/v1/chat/completions`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${s.key}`,
      "content-type": "application/json",
      "x-hippocampus-memory": memory,
      "x-conversation-id": `bench-${id}`,
    },
    body: JSON.stringify({
      model: "bench",
      messages: [{ role: "user", content: question }],
      user: userId,
      metadata: { bench: id },
    }),
  });
  await res.text();
  if (!res.ok) throw new Error(`router answered HTTP ${res.status}`);
  const arrival = up.arrivals.get(id);
  if (!arrival) throw new Error("the upstream never saw the request");
  return {
    addedMs: arrival.at - started,
    recallMs: parseServerTiming(res.headers.get("server-timing"))?.dur.recall ?? 0,
    memories: Number(res.headers.get("x-hippocampus-memories") ?? 0),
    system: arrival.system,
  };
}

/** recall_memory as the first call of a fresh session (no limit: stage 1, core memories read too). */
async function firstCall(s: Server, userId: string, query: string): Promise<number> {
  const started = performance.now();
  const r = await s.client.callTool({
    name: "recall_memory",
    arguments: { query, user_id: userId, session_id: `bench-first-${++sequence}` },
  });
  if (r.isError) throw new Error("recall_memory failed");
  return performance.now() - started;
}

const p = (xs: number[]) => `${percentile(xs, 50).toFixed(1)} / ${percentile(xs, 95).toFixed(1)}`;

async function runSize(n: number, queryCount: number, s: Server, up: BenchUpstream): Promise<string> {
  const set = syntheticMemories(n);
  const userId = benchRunUser(`router-${n}`);
  say(`importing ${n} memories`);
  await importMemories(s, userId, set.memories);
  const questions = syntheticQueries(set, queryCount);
  for (const q of questions.slice(0, 5)) {
    await routed(s, up, userId, q.question, "read");
    await recall(s, userId, q.question);
    await firstCall(s, userId, q.question);
  }
  const off: number[] = [];
  const added: number[] = [];
  const serverRecall: number[] = [];
  const mcp: number[] = [];
  const mcpFirst: number[] = [];
  let withMemories = 0;
  say(`routing ${questions.length} queries three ways`);
  for (const q of questions) {
    off.push((await routed(s, up, userId, q.question, "off")).addedMs);
    const on = await routed(s, up, userId, q.question, "read");
    added.push(on.addedMs);
    serverRecall.push(on.recallMs);
    if (on.memories > 0) withMemories++;
    mcp.push((await recall(s, userId, q.question)).ms);
    mcpFirst.push(await firstCall(s, userId, q.question));
  }
  return `| ${n.toLocaleString("en")} | ${questions.length} | ${p(off)} | ${p(added)} | ${p(serverRecall)} | ${p(mcp)} | ${p(mcpFirst)} | ${((100 * withMemories) / questions.length).toFixed(0)}% |`;
}

async function runLocomo(ds: BenchDataset, s: Server, up: BenchUpstream): Promise<string[]> {
  let asked = 0;
  let withMemories = 0;
  let withEvidence = 0;
  const injected: number[] = [];
  const added: number[] = [];
  for (const sample of ds.samples) {
    const userId = benchUserId(sample.id);
    say(`importing ${sample.id}: ${sample.memories.length} memories`);
    await importMemories(s, userId, sample.memories);
    const contentOf = new Map(sample.memories.map((m) => [m.externalId, m.content]));
    say(`routing ${sample.questions.length} questions of ${sample.id}`);
    for (const q of sample.questions as BenchQuestion[]) {
      const r = await routed(s, up, userId, q.question, "read");
      asked++;
      added.push(r.addedMs);
      if (r.memories === 0) continue;
      withMemories++;
      injected.push(r.memories);
      const system = r.system ?? "";
      if (q.evidence.some((e) => system.includes(JSON.stringify(contentOf.get(e) ?? "\u0000")))) withEvidence++;
    }
  }
  const share = (k: number) => `${((100 * k) / Math.max(1, asked)).toFixed(1)}%`;
  return [
    `LoCoMo: ${asked} questions routed as first turns (${ds.samples.length} users)`,
    `  got memories: ${share(withMemories)} (${withMemories}); mean memories injected when any: ${(injected.reduce((a, b) => a + b, 0) / Math.max(1, injected.length)).toFixed(2)}`,
    `  injected memories hold the question's evidence: ${share(withEvidence)} (${withEvidence})`,
    `  added latency p50 / p95: ${p(added)} ms`,
  ];
}

async function main(): Promise<void> {
  const o = options();
  const up = await new BenchUpstream().start();
  const vars = { ROUTER_UPSTREAM_BASE_URL: up.base, ROUTER_UPSTREAM_API_KEY: UPSTREAM_KEY };
  const lines: string[] = [];
  try {
    const rows: string[] = [];
    for (const n of o.sizes) rows.push(await withServer(o.keep, (s) => runSize(n, o.queries, s, up), "bench", vars));
    if (rows.length > 0)
      lines.push(
        "ms, p50 / p95 (client side, one machine); 'added': from sending the chat request to the upstream receiving it",
        "| memories | queries | router, memory off | router added (recall on) | server recall | recall_memory, limit 10 | recall_memory, session's first call | got memories |",
        "| -------- | ------- | ------------------ | ------------------------ | ------------- | ----------------------- | ----------------------------------- | ------------ |",
        ...rows,
      );
    if (o.data) {
      const ds = loadDataset(JSON.parse(readFileSync(o.data, "utf8")));
      benchUserIds(ds.samples.map((x) => x.id));
      lines.push(...(await withServer(o.keep, (s) => runLocomo(ds, s, up), "bench", vars)));
    }
  } finally {
    await up.stop();
  }
  console.log(lines.join("\n"));
}

main().catch((err) => {
  console.error(`bench: ${err instanceof ScriptError ? err.message : ((err as Error).stack ?? String(err))}`);
  process.exit(1);
});
