/**
 * @module scripts/lib/stress-faults
 * The fault phases of the reliability run: a hard kill (SIGKILL to the server's process group)
 * while imports and saves are in flight, followed by a look at the database file for anything
 * half-written; the vector index failing for a while (the dev-only DEV_FAULTS flag); and hostile
 * but valid texts (the ReDoS review's inputs within the field limits) that must not stall.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import type { LocalServer } from "./local-server.ts";
import { PASSWORD_LABEL_SHAPES } from "./password-label-shapes.ts";
import { CALL_TIMEOUT_MS, openClient, type ToolAnswer } from "./stress-client.ts";
import type { WireChecks } from "./stress-invariants.ts";
import type { StressDevice } from "./stress-owners.ts";
import type { Rng } from "./stress-prng.ts";
import type { RandomRun } from "./stress-run.ts";
import { d1Files, type HalfWritten, halfWritten } from "./stress-store.ts";

export interface KillReport {
  /** Operations in flight by kind when the signal was sent. */
  inFlight: Record<string, number>;
  half: HalfWritten;
}

/** Waits for an import and a save to be in flight (up to 20 s), kills the server, inspects the file. */
export async function killDuringWrites(server: LocalServer, run: RandomRun, persistDir: string): Promise<KillReport> {
  const both = await run.waitFor(() => run.inFlight.import > 0 && run.inFlight.save > 0, 20_000);
  if (!both) await run.waitFor(() => run.inFlight.import + run.inFlight.save > 0, 10_000);
  const inFlight = Object.fromEntries(Object.entries(run.inFlight).filter(([, n]) => n > 0));
  run.pause();
  await server.kill();
  await run.waitFor(() => run.busy() === 0, CALL_TIMEOUT_MS + 5_000);
  const half = halfWritten(d1Files(persistDir), new Map(run.importsInFlight));
  run.importsInFlight.clear();
  return { inFlight, half };
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as ToolAnswer;
}

export interface VectorReport {
  windowMs: number;
  saved: number;
  /** During the fault: recalls answered without error, and how many found their memory. */
  recallsAnswered: number;
  recallsFound: number;
  unindexedDuringFault: number;
  unindexedAfterRepair: number;
  inSyncAfterRepair: boolean;
  recallsFoundAfterRepair: number;
  ok: boolean;
}

interface IndexStats {
  unindexed: number;
  in_sync: boolean;
}

async function indexStats(client: Client): Promise<IndexStats> {
  const r = await tool(client, "memory_stats", {});
  return (r.structuredContent as { index: IndexStats }).index;
}

async function recallFinds(client: Client, query: string, id: string): Promise<{ answered: boolean; found: boolean }> {
  const r = await tool(client, "recall_memory", { query, limit: 5 });
  const ids = ((r.structuredContent as { memories?: { id: string }[] } | undefined)?.memories ?? []).map((m) => m.id);
  return { answered: !r.isError, found: ids.includes(id) };
}

/** Saves and recalls while the index fails until `until`, then repairs and checks it caught up. */
export async function vectorPhase(base: string, device: StressDevice, wire: WireChecks, until: number, rng: Rng) {
  const { client } = await openClient(base, device, "mcp", wire);
  const marker = device.owners[0].marker;
  const report: VectorReport = {
    windowMs: until - Date.now(),
    saved: 0,
    recallsAnswered: 0,
    recallsFound: 0,
    unindexedDuringFault: 0,
    unindexedAfterRepair: -1,
    inSyncAfterRepair: false,
    recallsFoundAfterRepair: 0,
    ok: false,
  };
  try {
    const saved: { id: string; query: string }[] = [];
    for (let i = 0; i < 6 && Date.now() < until - 2_000; i++) {
      const word = `vx${rng.token(8)}`;
      const r = await tool(client, "save_memory", { content: `${marker} the ${word} lantern hangs in hall ${i}` });
      const s = r.structuredContent as { id: string | null; status: string } | undefined;
      if (!r.isError && s?.id && s.status === "created") saved.push({ id: s.id, query: `${word} lantern` });
    }
    report.saved = saved.length;
    // Counted right after the saves: nothing indexes this owner's rows but its own repair below, so
    // the count holds even when a loaded machine reaches this line after the window.
    report.unindexedDuringFault = (await indexStats(client)).unindexed;
    for (const m of saved) {
      const r = await recallFinds(client, m.query, m.id);
      report.recallsAnswered += r.answered ? 1 : 0;
      report.recallsFound += r.found ? 1 : 0;
    }
    while (Date.now() < until + 500) await sleep(200);
    await tool(client, "consolidate_memories", {});
    const after = await indexStats(client);
    report.unindexedAfterRepair = after.unindexed;
    report.inSyncAfterRepair = after.in_sync;
    for (const m of saved) report.recallsFoundAfterRepair += (await recallFinds(client, m.query, m.id)).found ? 1 : 0;
    report.ok =
      saved.length > 0 &&
      report.recallsAnswered === saved.length &&
      report.recallsFound === saved.length &&
      report.unindexedDuringFault >= saved.length &&
      report.unindexedAfterRepair === 0 &&
      report.inSyncAfterRepair &&
      report.recallsFoundAfterRepair === saved.length;
  } finally {
    await client.close().catch(() => undefined);
  }
  return report;
}

export interface HostileReport {
  requests: number;
  slowestMs: number;
  slowest: string;
  errors: string[];
}

/** The ReDoS review's texts where they are valid input: every request must answer quickly. */
export async function hostileInputs(base: string, device: StressDevice, wire: WireChecks): Promise<HostileReport> {
  const { client, fetch } = await openClient(base, device, "mcp", wire);
  const like = (n: number) => `I like ${".".repeat(n)}x`;
  const password = (n: number) => `password: x${".".repeat(n)}a`;
  const calls: [string, () => Promise<unknown>][] = [
    ["save I-like 7990", () => tool(client, "save_memory", { content: like(7990) })],
    ["save password 7980", () => tool(client, "save_memory", { content: password(7980) })],
    ["recall I-like 990", () => tool(client, "recall_memory", { query: like(990) })],
    ["summarize I-like 32000", () => tool(client, "summarize_conversation", { transcript: `User: ${like(32_000)}` })],
    [
      "summarize password 32000",
      () => tool(client, "summarize_conversation", { transcript: `User: ${password(32_000)}` }),
    ],
    // Chinese password labels, each opening a value scan (scripts/lib/password-label-shapes.ts).
    ...Object.entries(PASSWORD_LABEL_SHAPES).flatMap(([name, make]): [string, () => Promise<unknown>][] => [
      [`save ${name} 7990`, () => tool(client, "save_memory", { content: make(7990) })],
      [
        `summarize ${name} 59000`,
        () => tool(client, "summarize_conversation", { transcript: `User: ${make(59_000)}` }),
      ],
    ]),
    [
      "import 1 MB of ReDoS lines",
      async () => {
        const lines = Array.from({ length: 128 }, (_, i) =>
          JSON.stringify({ content: i % 2 ? like(7500) : password(7500), external_id: `hostile-${i}` }),
        );
        const res = await fetch(`${base}/v1/import`, {
          method: "POST",
          headers: { authorization: `Bearer ${device.key}`, "content-type": "application/x-ndjson" },
          body: lines.join("\n"),
        });
        return { isError: !res.ok, content: [{ type: "text", text: await res.text() }] };
      },
    ],
  ];
  const report: HostileReport = { requests: 0, slowestMs: 0, slowest: "", errors: [] };
  try {
    for (const [label, call] of calls) {
      const started = performance.now();
      const r = (await call().catch((err: Error) => ({
        isError: true,
        content: [{ type: "text", text: `no answer: ${err.message}` }],
      }))) as ToolAnswer;
      const ms = performance.now() - started;
      report.requests++;
      if (ms > report.slowestMs) Object.assign(report, { slowestMs: ms, slowest: label });
      if (r.isError) report.errors.push(`${label}: ${r.content?.[0]?.text?.slice(0, 200) ?? ""}`);
    }
  } finally {
    await client.close().catch(() => undefined);
  }
  return report;
}
