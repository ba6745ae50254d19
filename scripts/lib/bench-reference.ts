/**
 * @module scripts/lib/bench-reference
 * The reference: the official MCP memory server (@modelcontextprotocol/server-memory, a knowledge
 * graph in one JSON Lines file, substring search), started over stdio with the MCP SDK client on a
 * throwaway file. Memories go in its own format: one entity per conversation (`source`), each turn
 * an observation of it; a query asks `search_nodes`, which returns whole entities.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { BenchMemory } from "./bench-data.ts";

export interface Reference {
  client: Client;
  /** Resident memory of the server process now and at its peak (VmRSS, VmHWM), in bytes. */
  rss(): { now: number; peak: number };
  stop(): Promise<void>;
}

/** Entities per create_entities call: its own batch size, not ours to tune. */
const ENTITIES_PER_CALL = 50;

function procStatus(pid: number | null, field: "VmRSS" | "VmHWM"): number {
  if (pid === null) return 0;
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export async function startReference(): Promise<Reference> {
  const dir = mkdtempSync(join(tmpdir(), "server-memory-bench-"));
  const entry = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-memory/dist/index.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry],
    env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl"), PATH: process.env.PATH ?? "" },
    stderr: process.env.BENCH_REFERENCE_STDERR === "1" ? "inherit" : "ignore",
  });
  const client = new Client({ name: "hippocampus-bench-compare", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    rss: () => ({ now: procStatus(transport.pid, "VmRSS"), peak: procStatus(transport.pid, "VmHWM") }),
    stop: async () => {
      await client.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The entity a memory becomes an observation of. */
export const entityOf = (m: BenchMemory) => m.source ?? `memory ${m.externalId}`;

/** Loads memories as observations of one entity per conversation; returns the wall time. */
export async function loadReference(ref: Reference, memories: BenchMemory[]): Promise<number> {
  const byEntity = new Map<string, string[]>();
  for (const m of memories) byEntity.set(entityOf(m), [...(byEntity.get(entityOf(m)) ?? []), m.content]);
  const entities = [...byEntity].map(([name, observations]) => ({ name, entityType: "conversation", observations }));
  const started = performance.now();
  for (let i = 0; i < entities.length; i += ENTITIES_PER_CALL) {
    const r = await ref.client.callTool({
      name: "create_entities",
      arguments: { entities: entities.slice(i, i + ENTITIES_PER_CALL) },
    });
    if (r.isError) throw new Error(`server-memory create_entities failed: ${JSON.stringify(r.content)}`);
  }
  return performance.now() - started;
}

/** One search_nodes call: the names of the entities it returned, in order, and the round-trip time. */
export async function searchReference(ref: Reference, query: string): Promise<{ entities: string[]; ms: number }> {
  const started = performance.now();
  const r = (await ref.client.callTool({ name: "search_nodes", arguments: { query } })) as {
    isError?: boolean;
    structuredContent?: { entities?: { name: string }[] };
  };
  const ms = performance.now() - started;
  if (r.isError) throw new Error("server-memory search_nodes failed");
  return { entities: (r.structuredContent?.entities ?? []).map((e) => e.name), ms };
}
