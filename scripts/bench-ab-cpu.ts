/**
 * @module scripts/bench-ab-cpu
 * Two versions of the Worker side by side, on one machine at one time: each started offline from
 * its own project directory (a checkout with node_modules), loaded with the same synthetic
 * memories, then given rounds of recalls in turn (A, B, B, A, …) on the Worker's own socket (past
 * wrangler's dev proxy). Per round it prints the runtime workerd's CPU per recall (/proc/<pid>/stat)
 * and the Server-Timing total p50/p95. A shared, noisy machine moves absolute figures between
 * rounds; the pairs within a round are what compare.
 *
 *   npm run bench:ab -- --a /path/to/before --b /path/to/after [--size 1000] [--recalls 200] [--rounds 4]
 *
 * A directory for an older commit: `git archive <commit> | tar -x -C <dir>` and a node_modules link.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createKey } from "./lib/api-keys.ts";
import { percentile } from "./lib/bench-metrics.ts";
import { connect, importMemories, recall, type Server } from "./lib/bench-run.ts";
import { phraseQueries, syntheticMemories } from "./lib/bench-synthetic.ts";
import { type LocalServer, startLocalServer } from "./lib/local-server.ts";
import { applyMigrations, ScriptError, setLocalPersistDir } from "./lib/wrangler-d1.ts";

const say = (text: string) => process.stderr.write(`ab: ${text}\n`);

interface Side {
  name: string;
  dir: string;
  server: LocalServer;
  client: Server;
}

/** Starts one version from `root` (its snapshot is taken from the current directory). */
async function startSide(name: string, root: string): Promise<Side> {
  const dir = mkdtempSync(join(tmpdir(), `hippocampus-ab-${name}-`));
  const cwd = process.cwd();
  process.chdir(root);
  try {
    setLocalPersistDir(dir);
    applyMigrations("local");
    const { key } = await createKey({ scope: "app", name: `ab-${name}`, account: "bench", label: "bench:ab" }, "local");
    const server = await startLocalServer(dir);
    const direct = await server.directBase();
    if (!direct) throw new ScriptError(`${name}: the Worker's own socket was not found`);
    return { name, dir, server, client: await connect(direct, key) };
  } finally {
    process.chdir(cwd);
  }
}

async function round(side: Side, userId: string, queries: string[]): Promise<{ cpuMs: number; line: string }> {
  const cpu = () => side.server.workerdCpuMs().reduce((a, b) => a + b, 0);
  const totals: number[] = [];
  const before = cpu();
  for (const q of queries) totals.push((await recall(side.client, userId, q)).server?.dur.total ?? Number.NaN);
  const cpuMs = (cpu() - before) / queries.length;
  const server = `server total p50 ${percentile(totals, 50)} / p95 ${percentile(totals, 95)} ms`;
  return { cpuMs, line: `${side.name}  ${cpuMs.toFixed(2)} ms CPU/recall  ${server}` };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Means over the rounds, and B against A round by round (the two runs of one round share the machine's load). */
function summary(a: number[], b: number[]): string {
  const ratios = a.map((x, i) => b[i] / x);
  const lower = ratios.filter((r) => r < 1).length;
  return (
    `mean CPU/recall A ${mean(a).toFixed(2)} ms, B ${mean(b).toFixed(2)} ms (B/A ${(mean(b) / mean(a)).toFixed(3)}); ` +
    `per round B/A median ${percentile(ratios, 50).toFixed(3)}, B lower in ${lower} of ${ratios.length}`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: "string" },
      b: { type: "string" },
      size: { type: "string", default: "1000" },
      recalls: { type: "string", default: "200" },
      rounds: { type: "string", default: "4" },
    },
  });
  if (!values.a || !values.b) throw new ScriptError("--a and --b name two project directories");
  const set = syntheticMemories(Number(values.size));
  // The queries bench:compare sends: two adjacent words of one memory.
  const queries = phraseQueries(set, Number(values.recalls)).map((q) => q.query);
  const sides: Side[] = [];
  try {
    for (const [name, root] of [
      ["A", values.a],
      ["B", values.b],
    ] as const) {
      say(`starting ${name} from ${root}`);
      const side = await startSide(name, resolve(root));
      sides.push(side);
      say(`${name}: importing ${set.memories.length}`);
      await importMemories(side.client, "ab-user", set.memories);
      for (const q of queries.slice(0, 20)) await recall(side.client, "ab-user", q);
    }
    const perRecall: Record<string, number[]> = { A: [], B: [] };
    for (let r = 0; r < Number(values.rounds); r++) {
      const order = r % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const figures = await round(side, "ab-user", queries);
        perRecall[side.name].push(figures.cpuMs);
        console.log(`round ${r + 1}  ${figures.line}`);
      }
    }
    console.log(summary(perRecall.A, perRecall.B));
  } finally {
    for (const side of sides) {
      await side.client.client.close().catch(() => undefined);
      await side.server.stop();
      rmSync(side.dir, { recursive: true, force: true });
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ScriptError ? err.message : String(err)}\n`);
  process.exit(1);
});
