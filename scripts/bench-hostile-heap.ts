/**
 * @module scripts/bench-hostile-heap
 * The Worker's heap while its upstream answers 400 MB (docs/reliability.md, "Model output is input"):
 *   npm run bench:hostile-heap -- [--users 4] [--keep]
 * Starts the hostile upstream (scripts/lib/stress-hostile-upstream.ts) forced to its 400 MB body, and
 * the offline server with it as embedder and Llm, on a throwaway state directory; samples the Worker
 * isolate's heap over the DevTools protocol (scripts/lib/inspector-heap.ts, every 20 ms) while each of
 * `--users` persons saves a long memory (a summary and an embedding request, each answered 400 MB)
 * and recalls it; prints the heap before, its peak and the growth, and what the upstream got to write.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createKeys } from "./lib/api-keys.ts";
import { connect } from "./lib/bench-run.ts";
import { connectInspector, type WorkerInspector } from "./lib/inspector-heap.ts";
import { freePort, type LocalServer, startLocalServer } from "./lib/local-server.ts";
import { HostileUpstream } from "./lib/stress-hostile-upstream.ts";
import { Rng } from "./lib/stress-prng.ts";
import { applyMigrations, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const MB = 1024 * 1024;
const say = (text: string) => process.stderr.write(`hostile-heap: ${text}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { users: { type: "string", default: "4" }, keep: { type: "boolean" } } });
  const users = Math.max(1, Math.min(20, Number(values.users) || 4));
  const dir = mkdtempSync(join(tmpdir(), "hippocampus-hostile-heap-"));
  const upstream = await new HostileUpstream(new Rng(1)).start();
  upstream.policy = { force: "huge-body" };
  let server: LocalServer | null = null;
  let inspector: WorkerInspector | null = null;
  try {
    setLocalPersistDir(dir);
    applyMigrations("local");
    const keys = await createKeys(
      Array.from({ length: users }, (_, i) => ({
        scope: "user" as const,
        name: `heap-${i}`,
        account: "default",
        label: "hostile heap",
      })),
      "local",
    );
    const inspectorPort = Number(process.env.BENCH_INSPECTOR_PORT) || (await freePort());
    server = await startLocalServer(dir, { inspectorPort, vars: upstream.vars(), timeoutMs: 180_000 });
    const base = (await server.directBase()) ?? server.base;
    inspector = await connectInspector(inspectorPort);
    // Warm: the first request compiles the Worker.
    await fetch(`${base}/health`).then((r) => r.arrayBuffer());
    await sleep(500);
    const before = (await inspector.heap()).usedBytes;
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await inspector!.heap()).usedBytes);
        await sleep(20);
      }
    })();
    const started = Date.now();
    const long = `My garden plan for the spring: ${"tomatoes, basil, courgettes and sunflowers along the fence; ".repeat(10)}`;
    const outcomes = await Promise.all(
      keys.map(async ({ key }) => {
        const mcp = await connect(base, key);
        try {
          const saved = await mcp.client.callTool({ name: "save_memory", arguments: { content: long } });
          const recalled = await mcp.client.callTool({ name: "recall_memory", arguments: { query: "garden plan" } });
          return !saved.isError && !recalled.isError;
        } finally {
          await mcp.client.close().catch(() => undefined);
        }
      }),
    );
    const elapsed = Date.now() - started;
    sampling = false;
    await sampler;
    const after = (await inspector.heap()).usedBytes;
    peak = Math.max(peak, after);
    const record = upstream.record;
    console.log(
      [
        `hostile upstream answering 400 MB to every request, ${users} persons saving a long memory and recalling it (${elapsed} ms)`,
        `answered without error: ${outcomes.filter(Boolean).length} of ${users}`,
        `upstream requests: ${record.requests}; bytes the upstream got to write: ${(record.bytesPulled / MB).toFixed(1)} MB in all, ${(record.maxBodyPulled / MB).toFixed(1)} MB the most for one answer; streams cancelled: ${record.cancelled}`,
        `Worker isolate heap (used): ${(before / MB).toFixed(1)} MB before, ${(peak / MB).toFixed(1)} MB peak, ${(after / MB).toFixed(1)} MB after; growth at peak ${((peak - before) / MB).toFixed(1)} MB`,
      ].join("\n"),
    );
    return outcomes.every(Boolean) && peak - before < 64 * MB ? 0 : 1;
  } finally {
    inspector?.close();
    await server?.stop();
    await upstream.stop();
    if (values.keep) say(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`hostile-heap: ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
