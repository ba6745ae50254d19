/**
 * @module scripts/lib/bench-cpu-requests
 * `npm run bench:cpu -- --requests N`: one MCP request of each kind, N times each, on a warm isolate,
 * through the MCP SDK client over /mcp as an agent sends it. Per kind: p50 / p95 of the Worker
 * isolate's CPU (V8 profile; the isolate runs the Worker and its Durable Objects, not the local D1),
 * of the wall time, of the Durable Object's share (Server-Timing `do`), the D1 rows read and written
 * and the rows the object's own SQLite read and wrote (Server-Timing). The figures `npm run cost` takes per operation (scripts/lib/cost-model.ts).
 */
import type { Server } from "./bench-run.ts";
import { ScriptError } from "./wrangler-d1.ts";

export interface RequestCpu {
  isolateMs: number;
  wallMs: number;
}

type Measure = <T>(work: () => Promise<T>) => Promise<{ value: T; cpu: RequestCpu }>;

interface KindFigures {
  cpu: number[];
  wall: number[];
  doMs: number[];
  rowsRead: number[];
  rowsWritten: number[];
  doRowsRead: number[];
  doRowsWritten: number[];
}

/** Nearest-rank percentile of `xs` (q in 0..1). */
export function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

const TOPICS = ["the garden", "a trip to Lisbon", "the quarterly report", "her sister's wedding", "a new bicycle"];
const VERBS = ["planned", "finished", "postponed", "talked about", "paid for"];
const note = (i: number) =>
  `Note ${i}: on day ${(i % 28) + 1} Mira ${VERBS[i % VERBS.length]} ${TOPICS[(i * 7) % TOPICS.length]} (ref ${i * 7919}).`;

type Call = { name: string; arguments: Record<string, unknown> };

/**
 * Each kind `n` times for `user` (an app key's end user), measured one at a time. A call that answers
 * an error stops the bench: a figure of a refused request is not the request's cost.
 */
export async function requestKinds(mcp: Server, user: string, n: number, measure: Measure): Promise<string[]> {
  const saved: string[] = [];
  const figures = new Map<string, KindFigures>();
  const record = (kind: string, cpu: RequestCpu) => {
    const t = mcp.lastTiming();
    const f = figures.get(kind) ?? {
      cpu: [],
      wall: [],
      doMs: [],
      rowsRead: [],
      rowsWritten: [],
      doRowsRead: [],
      doRowsWritten: [],
    };
    f.cpu.push(cpu.isolateMs);
    f.wall.push(cpu.wallMs);
    f.doMs.push(t?.dur.do ?? Number.NaN);
    f.rowsRead.push(t?.d1RowsRead ?? Number.NaN);
    f.rowsWritten.push(t?.d1RowsWritten ?? Number.NaN);
    f.doRowsRead.push(t?.doSqlRowsRead ?? Number.NaN);
    f.doRowsWritten.push(t?.doSqlRowsWritten ?? Number.NaN);
    figures.set(kind, f);
  };
  const call = async (kind: string, c: Call) => {
    const { value, cpu } = await measure(async () => {
      const r = (await mcp.client.callTool({ name: c.name, arguments: { user_id: user, ...c.arguments } })) as {
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      };
      if (r.isError) throw new ScriptError(`${c.name} answered an error`);
      return r.structuredContent ?? {};
    });
    record(kind, cpu);
    return value;
  };
  const list = async () => {
    const { cpu } = await measure(() => mcp.client.listTools());
    record("tools/list", cpu);
  };
  // Warm every path once, unmeasured: the first call of a kind loads its code.
  await mcp.client.listTools();
  await mcp.client.callTool({ name: "save_memory", arguments: { user_id: user, content: note(-1) } });
  await mcp.client.callTool({ name: "recall_memory", arguments: { user_id: user, query: "Lisbon trip" } });
  figures.clear();
  for (let i = 0; i < n; i++) {
    const s = await call("save_memory", { name: "save_memory", arguments: { content: note(i) } });
    if (typeof s.id === "string") saved.push(s.id);
    await call("recall_memory", {
      name: "recall_memory",
      arguments: { query: `what did Mira do about ${TOPICS[i % TOPICS.length]}` },
    });
    await call("list_memories", { name: "list_memories", arguments: { limit: 10 } });
    await call("memory_stats", { name: "memory_stats", arguments: {} });
    await list();
  }
  for (const [i, id] of saved.entries()) {
    await call("update_memory", { name: "update_memory", arguments: { id, content: `${note(i)} Updated.` } });
  }
  for (const id of saved) await call("delete_memory", { name: "delete_memory", arguments: { id } });
  const f1 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(1));
  const f0 = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(0));
  const cells = (xs: string[]) => `  | ${xs.join(" | ")} |`;
  const rows = [
    cells([
      "request kind",
      "n",
      "isolate CPU p50 / p95 (ms)",
      "wall p50 / p95 (ms)",
      "DO p50 (ms)",
      "D1 rows read / written p50",
      "DO SQLite rows read / written p50",
    ]),
    cells(["---", "---", "---", "---", "---", "---", "---"]),
  ];
  for (const [kind, f] of figures)
    rows.push(
      cells([
        kind,
        String(f.cpu.length),
        `${f1(percentile(f.cpu, 0.5))} / ${f1(percentile(f.cpu, 0.95))}`,
        `${f1(percentile(f.wall, 0.5))} / ${f1(percentile(f.wall, 0.95))}`,
        f1(percentile(f.doMs, 0.5)),
        `${f0(percentile(f.rowsRead, 0.5))} / ${f0(percentile(f.rowsWritten, 0.5))}`,
        `${f0(percentile(f.doRowsRead, 0.5))} / ${f0(percentile(f.doRowsWritten, 0.5))}`,
      ]),
    );
  return rows;
}
