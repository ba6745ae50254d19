/**
 * @module scripts/lib/stress-client
 * One reliability-run client: an MCP SDK client over /mcp or /sse with one device's key, whose
 * every HTTP answer (streams included) is scanned for 5xx, stack traces and foreign markers, and
 * which executes generated operations and records what the server acknowledged in the ledger.
 */
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Ledger, WireChecks } from "./stress-invariants.ts";
import type { ImportSpec, Op } from "./stress-ops.ts";
import type { StressDevice, StressOwner } from "./stress-owners.ts";

export type Transport = "mcp" | "sse";

/** A call that gets no answer in this time counts as failed (a busy 2-core machine answers in well under it). */
export const CALL_TIMEOUT_MS = 30_000;

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Scans a text/event-stream body event by event while passing it on unchanged. */
function scanStream(body: ReadableStream<Uint8Array>, onEvent: (text: string) => void): ReadableStream<Uint8Array> {
  const [pass, watch] = body.tee();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of watch) {
        buffer += decoder.decode(chunk, { stream: true });
        const events = buffer.split("\n\n");
        buffer = events.pop() ?? "";
        for (const e of events) onEvent(e);
      }
    } catch {
      // the stream was cut (client closed, server killed)
    }
    if (buffer) onEvent(buffer);
  })();
  return pass;
}

/** fetch that reports every answer to the wire checks; `allowed` are the owner ids this key may see. */
export function watchedFetch(wire: WireChecks, where: string, allowed: string[]): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    const path = new URL(String(url)).pathname;
    const label = `${where} ${init?.method ?? "GET"} ${path}`;
    const check = (text: string) => {
      wire.scanWire(label, res.status, text);
      wire.scanMarkers(label, allowed, text);
    };
    if (res.body && (res.headers.get("content-type") ?? "").includes("text/event-stream")) {
      return new Response(scanStream(res.body, check), res);
    }
    check(await res.clone().text());
    return res;
  };
}

export async function openClient(base: string, device: StressDevice, transport: Transport, wire: WireChecks) {
  const headers = { authorization: `Bearer ${device.key}` };
  const fetch = watchedFetch(
    wire,
    device.label,
    device.owners.map((o) => o.id),
  );
  const client = new Client({ name: "hippocampus-stress", version: "1.0.0" });
  const t =
    transport === "sse"
      ? new SSEClientTransport(new URL(`${base}/sse`), { fetch, requestInit: { headers } })
      : new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch, requestInit: { headers } });
  await client.connect(t);
  return { client, fetch };
}

export interface ToolAnswer {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content?: { type: string; text?: string }[];
}

export interface Executor {
  base: string;
  device: StressDevice;
  client: Client;
  fetch: FetchLike;
  clientLabel: string;
  ledger: Ledger;
  wire: WireChecks;
  /** Import prefixes in flight (prefix → lines) for the all-or-nothing check after a kill. */
  importsInFlight: Map<string, number>;
}

/** Result of one operation: "ok", "tool-error" (the server refused it cleanly) or "failed" (no answer). */
export type OpResult = "ok" | "tool-error" | "failed";

function scopeArgs(owner: StressOwner, device: StressDevice): Record<string, unknown> {
  return device.scope === "app" ? { user_id: owner.user } : {};
}

async function callTool(x: Executor, op: Op, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const full = { ...args, ...scopeArgs(op.owner, x.device) };
  for (const k of Object.keys(full)) if (full[k] === undefined) delete full[k];
  const answer = (await x.client.callTool({ name, arguments: full }, { timeout: CALL_TIMEOUT_MS })) as ToolAnswer;
  x.wire.scanMarkers(`${x.clientLabel} ${name} for ${op.owner.id}`, [op.owner.id], JSON.stringify(answer));
  return answer;
}

type Memo = { id: string; content: string } | null;

async function runImport(x: Executor, op: Extract<Op, { kind: "import" }>): Promise<OpResult> {
  const params = new URLSearchParams();
  if (x.device.scope === "app") params.set("user_id", op.owner.user);
  if (op.agent) params.set("agent_id", op.agent);
  const body = op.lines
    .map((l: ImportSpec) => JSON.stringify({ content: l.content.text, external_id: l.external_id, tags: l.tags }))
    .join("\n");
  x.importsInFlight.set(op.prefix, op.lines.length);
  const res = await x.fetch(`${x.base}/v1/import?${params}`, {
    method: "POST",
    headers: { authorization: `Bearer ${x.device.key}`, "content-type": "application/x-ndjson" },
    body,
  });
  const text = await res.text();
  x.wire.scanMarkers(`${x.clientLabel} import for ${op.owner.id}`, [op.owner.id], text);
  if (!res.ok) return res.status >= 500 ? "failed" : "tool-error";
  x.importsInFlight.delete(op.prefix);
  const items = (
    JSON.parse(text) as {
      items: { id: string; external_id: string | null; status: string; redactions?: unknown[]; quarantined?: string }[];
    }
  ).items;
  const sent = new Map(op.lines.map((l) => [l.external_id, l]));
  for (const item of items) {
    const line = item.external_id ? sent.get(item.external_id) : undefined;
    const plain = line?.content.plain && !(item.redactions && item.redactions.length > 0);
    x.ledger.ackWrite({
      owner: op.owner.id,
      id: item.id,
      // A line that looked like injection lands quarantined: the answer says so, as a save's does.
      outcome: item.quarantined ? "quarantined" : item.status,
      content: plain && line ? line.content.text.trim() : null,
      forgetTag: null,
      by: x.clientLabel,
    });
  }
  return "ok";
}

/** Executes `op`, records acknowledged writes; throws only on a transport failure (no answer). */
export async function execute(x: Executor, op: Op): Promise<OpResult> {
  const o = op.owner.id;
  switch (op.kind) {
    case "import":
      return runImport(x, op);
    case "save": {
      const r = await callTool(x, op, "save_memory", op.args);
      if (r.isError) return "tool-error";
      const s = r.structuredContent as { status: string; id: string | null; memory: Memo; redacted: unknown[] };
      // The answer's memory is what was stored (secrets already redacted); a merge answers with the older one.
      const content = s.status !== "merged" && s.memory ? s.memory.content : null;
      x.ledger.ackWrite({
        owner: o,
        id: s.id,
        outcome: s.status,
        content,
        forgetTag: op.forgetTag,
        by: x.clientLabel,
      });
      return "ok";
    }
    case "update": {
      let r: ToolAnswer;
      try {
        r = await callTool(x, op, "update_memory", { id: op.id, content: op.content.text });
      } catch (err) {
        x.ledger.unsure(o, op.id);
        throw err;
      }
      if (r.isError) return "tool-error";
      const memory = (r.structuredContent as { memory: (Memo & { status: string }) | null }).memory;
      x.ledger.ackUpdate(o, op.id, memory ? memory.content : null, memory?.status);
      return "ok";
    }
    case "delete": {
      let r: ToolAnswer;
      try {
        r = await callTool(x, op, "delete_memory", { ids: op.ids });
      } catch (err) {
        for (const id of op.ids) x.ledger.unsure(o, id);
        throw err;
      }
      if (r.isError) return "tool-error";
      const s = r.structuredContent as { deleted: string[]; already_deleted: string[] };
      for (const id of [...s.deleted, ...s.already_deleted]) x.ledger.ackDelete(o, id);
      return "ok";
    }
    case "restore": {
      let r: ToolAnswer;
      try {
        r = await callTool(x, op, "restore_memory", { id: op.id });
      } catch (err) {
        x.ledger.unsure(o, op.id);
        throw err;
      }
      if (r.isError) return "tool-error";
      x.ledger.ackRestore(o, op.id);
      return "ok";
    }
    case "forget": {
      // Every memory carrying the tag may change: mark them before the call, as its answer may be lost.
      x.ledger.forgetting(o, op.tag);
      const r = await callTool(x, op, "forget_memories", { tags: [op.tag] });
      if (r.isError) return "tool-error";
      x.ledger.ack();
      return "ok";
    }
    case "summarize": {
      const r = await callTool(x, op, "summarize_conversation", op.args);
      if (r.isError) return "tool-error";
      const outcomes = (r.structuredContent as { outcomes: { status: string; id: string | null }[] }).outcomes;
      for (const out of outcomes)
        x.ledger.ackWrite({
          owner: o,
          id: out.id,
          outcome: out.status,
          content: null,
          forgetTag: null,
          by: x.clientLabel,
        });
      return "ok";
    }
    case "recall":
      return (await callTool(x, op, "recall_memory", op.args)).isError ? "tool-error" : "ok";
    case "list":
      return (await callTool(x, op, "list_memories", op.args)).isError ? "tool-error" : "ok";
    case "history":
      return (await callTool(x, op, "memory_history", { id: op.id })).isError ? "tool-error" : "ok";
  }
}
