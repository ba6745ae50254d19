/**
 * @module scripts/lib/stress-embedder-fault
 * The embedding outage of the reliability run: the server restarts with `DEV_FAULTS=on` and
 * `DEV_FAULT_EMBEDDER_UNTIL=<epoch ms>`, so its embedder fails every call until then. A dedicated
 * owner writes through every write path meanwhile (save, update, restore, summarize, import): each
 * write must be answered as stored and "indexed later" (which also proves it met the outage), be
 * counted unindexed by memory_stats and be found by keyword recall before the window ends; after it,
 * regenerate_embeddings (index repair) must index every one of them and recall must still find each.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/client";
import { CALL_TIMEOUT_MS, openClient, type ToolAnswer } from "./stress-client.ts";
import type { WireChecks } from "./stress-invariants.ts";
import type { StressDevice } from "./stress-owners.ts";
import type { Rng } from "./stress-prng.ts";

export interface EmbedderReport {
  windowMs: number;
  /** Writes sent during the outage, by every path, and how many were not answered as stored. */
  writes: number;
  failedWrites: number;
  /** Of the stored ones, how many said indexed_later. */
  indexedLater: number;
  recallsAnswered: number;
  recallsFound: number;
  /** Recalls answered before the outage ended (the keyword-only answers). */
  recallsInWindow: number;
  /** Memories the phase wrote that keyword recall is asked for (one per write). */
  probes: number;
  unindexedDuringFault: number;
  unindexedAfterRepair: number;
  inSyncAfterRepair: boolean;
  recallsFoundAfterRepair: number;
  ok: boolean;
}

interface Probe {
  id: string;
  query: string;
}

async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as ToolAnswer;
}

type Stored = { id?: string | null; status?: string; indexed_later?: boolean; memory?: { id: string } };

/** The writes of the phase; each pushes a probe for what it stored, or counts a failure. */
async function writeEverything(
  client: Client,
  post: (body: string) => Promise<Response>,
  marker: string,
  rng: Rng,
  report: EmbedderReport,
): Promise<Probe[]> {
  const probes: Probe[] = [];
  const word = () => `ex${rng.token(8)}`;
  const note = (ok: boolean, later: boolean) => {
    report.writes++;
    if (!ok) report.failedWrites++;
    if (ok && later) report.indexedLater++;
  };
  const saveOne = async (text: string): Promise<Stored | null> => {
    const r = await tool(client, "save_memory", { content: text });
    const s = r.structuredContent as Stored | undefined;
    note(!r.isError && s?.status === "created", s?.indexed_later === true);
    return !r.isError && s?.id ? s : null;
  };
  for (let i = 0; i < 4; i++) {
    const w = word();
    const s = await saveOne(`${marker} the ${w} compass rests on shelf ${i}`);
    if (s?.id) probes.push({ id: s.id, query: `${w} compass` });
  }
  const edited = word();
  if (probes[0]) {
    const r = await tool(client, "update_memory", {
      id: probes[0].id,
      content: `${marker} the ${edited} kettle moved`,
    });
    note(!r.isError, (r.structuredContent as Stored | undefined)?.indexed_later === true);
    if (!r.isError) probes[0] = { id: probes[0].id, query: `${edited} kettle` };
  }
  if (probes[1]) {
    await tool(client, "delete_memory", { id: probes[1].id });
    const r = await tool(client, "restore_memory", { id: probes[1].id });
    note(!r.isError, (r.structuredContent as Stored | undefined)?.indexed_later === true);
  }
  const told = [word(), word()];
  const sum = await tool(client, "summarize_conversation", {
    transcript: [
      `User: ${marker} I prefer ${told[0]} tea on rainy mornings.`,
      "Assistant: Noted.",
      `User: ${marker} My project ${told[1]} ships after the spring review.`,
    ].join("\n"),
  });
  const outcomes = (sum.structuredContent as { outcomes?: Stored[] } | undefined)?.outcomes ?? [];
  note(
    !sum.isError,
    outcomes.every((o) => o.indexed_later),
  );
  for (const o of outcomes) {
    const w = told.find((t) => JSON.stringify(o).includes(t));
    if (o.id && w) probes.push({ id: o.id, query: w });
  }
  const lines = [word(), word(), word()];
  const res = await post(lines.map((w) => JSON.stringify({ content: `${marker} the ${w} pebble is blue` })).join("\n"));
  const body = res.ok
    ? ((await res.json()) as { imported: number; indexed_later: number; items: { id: string }[] })
    : null;
  note(body?.imported === lines.length, body?.indexed_later === lines.length);
  body?.items.forEach((it, i) => probes.push({ id: it.id, query: `${lines[i]} pebble` }));
  return probes;
}

async function unindexedCount(client: Client): Promise<{ unindexed: number; in_sync: boolean }> {
  const r = await tool(client, "memory_stats", {});
  return (r.structuredContent as { index: { unindexed: number; in_sync: boolean } }).index;
}

async function found(client: Client, p: Probe): Promise<{ answered: boolean; found: boolean }> {
  const r = await tool(client, "recall_memory", { query: p.query, limit: 5 });
  const ids = ((r.structuredContent as { memories?: { id: string }[] } | undefined)?.memories ?? []).map((m) => m.id);
  return { answered: !r.isError, found: ids.includes(p.id) };
}

/** Writes, recalls and counts while the embedder fails until `until`, then repairs and checks it caught up. */
export async function embedderPhase(
  base: string,
  device: StressDevice,
  wire: WireChecks,
  until: number,
  rng: Rng,
): Promise<EmbedderReport> {
  const { client, fetch } = await openClient(base, device, "mcp", wire);
  const post = (body: string) =>
    fetch(`${base}/v1/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${device.key}`, "content-type": "application/x-ndjson" },
      body,
    });
  const report: EmbedderReport = {
    windowMs: until - Date.now(),
    writes: 0,
    failedWrites: 0,
    indexedLater: 0,
    recallsAnswered: 0,
    recallsFound: 0,
    recallsInWindow: 0,
    probes: 0,
    unindexedDuringFault: 0,
    unindexedAfterRepair: -1,
    inSyncAfterRepair: false,
    recallsFoundAfterRepair: 0,
    ok: false,
  };
  try {
    const probes = await writeEverything(client, post, device.owners[0].marker, rng, report);
    report.probes = probes.length;
    // Nothing indexes this owner's rows but its own regenerate_embeddings below: the count holds.
    report.unindexedDuringFault = (await unindexedCount(client)).unindexed;
    for (const p of probes) {
      const r = await found(client, p);
      report.recallsAnswered += r.answered ? 1 : 0;
      report.recallsFound += r.found ? 1 : 0;
      if (Date.now() < until) report.recallsInWindow++;
    }
    while (Date.now() < until + 500) await sleep(200);
    for (let i = 0; i < 5; i++) {
      const r = await tool(client, "regenerate_embeddings", {});
      if ((r.structuredContent as { index?: { in_sync?: boolean } } | undefined)?.index?.in_sync) break;
    }
    const after = await unindexedCount(client);
    report.unindexedAfterRepair = after.unindexed;
    report.inSyncAfterRepair = after.in_sync;
    for (const p of probes) report.recallsFoundAfterRepair += (await found(client, p)).found ? 1 : 0;
    report.ok =
      report.recallsInWindow === probes.length &&
      report.writes > 0 &&
      report.failedWrites === 0 &&
      report.indexedLater === report.writes &&
      report.recallsAnswered === probes.length &&
      report.recallsFound === probes.length &&
      report.unindexedDuringFault >= probes.length &&
      report.unindexedAfterRepair === 0 &&
      report.inSyncAfterRepair &&
      report.recallsFoundAfterRepair === probes.length;
  } finally {
    await client.close().catch(() => undefined);
  }
  return report;
}
