/**
 * @module scripts/lib/stress-verify
 * Reads back every owner's whole store through the API (list_memories, every status, all pages)
 * and compares it with the ledger of acknowledged writes.
 */
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { CALL_TIMEOUT_MS, openClient, type ToolAnswer } from "./stress-client.ts";
import type { Ledger, ListedMemory, LostWrite, WireChecks } from "./stress-invariants.ts";
import type { StressDevice, StressOwner } from "./stress-owners.ts";

/** Every memory of `owner`, any status, through `client` (a key of that owner's device). */
export async function listAll(client: Client, owner: StressOwner, device: StressDevice, wire: WireChecks) {
  const memories: ListedMemory[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const args: Record<string, unknown> = { status: "all", limit: 100, order: "oldest" };
    if (cursor) args.cursor = cursor;
    if (device.scope === "app") args.user_id = owner.user;
    const r = (await client.callTool(
      { name: "list_memories", arguments: args },
      { timeout: CALL_TIMEOUT_MS },
    )) as ToolAnswer;
    const text = JSON.stringify(r);
    wire.scanMarkers(`verify list ${owner.id}`, [owner.id], text);
    if (r.isError) throw new Error(`list_memories for ${owner.id} failed: ${r.content?.[0]?.text ?? ""}`);
    const s = r.structuredContent as { memories: ListedMemory[]; next_cursor: string | null };
    memories.push(...s.memories.map((m) => ({ id: m.id, content: m.content, status: m.status })));
    if (!s.next_cursor) break;
    cursor = s.next_cursor;
  }
  return memories;
}

export interface Verification {
  owners: number;
  memories: number;
  lost: LostWrite[];
}

/** Lists every owner the ledger knows and returns what is missing or wrong. */
export async function verifyLedger(
  base: string,
  devices: StressDevice[],
  ledger: Ledger,
  wire: WireChecks,
): Promise<Verification> {
  const result: Verification = { owners: 0, memories: 0, lost: [] };
  const known = new Set(ledger.owners());
  for (const device of devices) {
    const owners = device.owners.filter((o) => known.delete(o.id));
    if (owners.length === 0) continue;
    const { client } = await openClient(base, device, "mcp", wire);
    try {
      for (const owner of owners) {
        const listed = await listAll(client, owner, device, wire);
        result.owners++;
        result.memories += listed.length;
        result.lost.push(...ledger.verify(owner.id, listed));
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  return result;
}

/** SHA-256 over every owner's full listing (any status), for --url runs where the file is out of reach. */
export async function apiDigest(base: string, devices: StressDevice[], wire: WireChecks): Promise<string> {
  const hash = createHash("sha256");
  const seen = new Set<string>();
  for (const device of devices) {
    const owners = device.owners.filter((o) => !seen.has(o.id));
    if (owners.length === 0) continue;
    const { client } = await openClient(base, device, "mcp", wire);
    try {
      for (const owner of owners) {
        seen.add(owner.id);
        hash.update(`${owner.id}\n${JSON.stringify(await listAll(client, owner, device, wire))}\n`);
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  return hash.digest("hex");
}
