/**
 * @module scripts/lib/stress-fuzz
 * Sends the fuzz cases and judges each answer: a 4xx with a message, a JSON-RPC error or a tool
 * error is a clean refusal; a success is a malformed request accepted; no answer is unclear. 5xx
 * and stack traces are caught by the wire checks. /sse cases go through raw legacy SSE sessions
 * (one per key), their answers matched on the stream by JSON-RPC id.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { watchedFetch } from "./stress-client.ts";
import type { FuzzCase } from "./stress-fuzz-cases.ts";
import type { WireChecks } from "./stress-invariants.ts";
import type { StressDevice } from "./stress-owners.ts";

export interface FuzzResult {
  cases: number;
  refused: number;
  /** Malformed requests the server answered as if valid (kind: first few). */
  accepted: string[];
  acceptedCount: number;
  unclear: string[];
  unclearCount: number;
  byRoute: Record<string, number>;
  slowestMs: number;
}

type Fetch = ReturnType<typeof watchedFetch>;

const OVERSIZE_BYTES = 1_100_000;

function oversizeBody(c: FuzzCase): string {
  const filler = "x".repeat(OVERSIZE_BYTES);
  if (c.route === "import")
    return Array.from({ length: 12 }, () => JSON.stringify({ content: filler.slice(0, 95_000) })).join("\n");
  if (c.route === "oauth")
    return JSON.stringify({ redirect_uris: ["https://x.example/cb"], client_name: filler.slice(0, 20_000) });
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "save_memory", arguments: { content: filler } },
  });
}

/** JSON-RPC messages in a JSON or text/event-stream body. */
export function rpcMessages(text: string): Record<string, unknown>[] {
  const parse = (t: string): Record<string, unknown>[] => {
    try {
      const v = JSON.parse(t) as unknown;
      return (Array.isArray(v) ? v : [v]).filter(
        (m): m is Record<string, unknown> => typeof m === "object" && m !== null,
      );
    } catch {
      return [];
    }
  };
  if (!text.includes("data:")) return parse(text);
  return text
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .flatMap((l) => parse(l.slice(5).trim()));
}

/** True when the message is a JSON-RPC error or a tool result flagged isError. */
export function isRefusal(m: Record<string, unknown>): boolean {
  if (m.error) return true;
  const result = m.result as { isError?: boolean } | undefined;
  return result?.isError === true;
}

interface SseSession {
  endpoint: string;
  key: string;
  /** Answers on the stream by JSON-RPC id (JSON text of the id). */
  answers: Map<string, Record<string, unknown>>;
  close: () => void;
}

async function openSession(base: string, key: string, fetch: Fetch): Promise<SseSession> {
  const controller = new AbortController();
  const res = await fetch(`${base}/sse`, {
    headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (!res.ok || !res.body) throw new Error(`GET /sse answered ${res.status}`);
  const session: SseSession = { endpoint: "", key, answers: new Map(), close: () => controller.abort() };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        const events = buffer.split("\n\n");
        buffer = events.pop() ?? "";
        for (const e of events) {
          if (e.includes("event: endpoint")) session.endpoint = e.split("data:")[1]?.trim() ?? "";
          else for (const m of rpcMessages(e)) session.answers.set(JSON.stringify(m.id ?? null), m);
        }
      }
    } catch {
      // aborted at the end
    }
  })();
  for (let i = 0; i < 200 && !session.endpoint; i++) await sleep(25);
  if (!session.endpoint) throw new Error("GET /sse sent no endpoint event");
  const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stress-fuzz", version: "1" } };
  await post(base, session, JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: init }), fetch);
  await post(base, session, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), fetch);
  return session;
}

function post(base: string, s: SseSession, body: string, fetch: Fetch) {
  return fetch(`${base}${s.endpoint}`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.key}`, "content-type": "application/json" },
    body,
  }).then((r) => r.text());
}

export interface FuzzTarget {
  base: string;
  user: StressDevice;
  app: StressDevice;
  wire: WireChecks;
}

function authHeader(c: FuzzCase, t: FuzzTarget): Record<string, string> {
  if (c.auth === "user") return { authorization: `Bearer ${t.user.key}` };
  if (c.auth === "app") return { authorization: `Bearer ${t.app.key}` };
  if (c.auth === "forged") return { authorization: `Bearer hc_${"0".repeat(40)}` };
  return {};
}

function ssePath(c: FuzzCase, s: SseSession): string {
  if (c.session === "unknown") return `/sse/message?sessionId=${"f".repeat(64)}`;
  if (c.session === "none") return "/sse/message";
  return s.endpoint;
}

/** The answer on the stream to the case's JSON-RPC id (a notification gets none, by design). */
async function sseVerdict(c: FuzzCase, session: SseSession): Promise<string> {
  const id = JSON.stringify((rpcMessages(c.body ?? "")[0]?.id as unknown) ?? null);
  const waits = c.notification ? 50 : 3000;
  for (let i = 0; i < waits && !session.answers.has(id); i++) await sleep(10);
  const answer = session.answers.get(id);
  session.answers.delete(id);
  if (!answer) return c.notification ? "refused" : "unclear";
  return isRefusal(answer) ? "refused" : "accepted";
}

/** One case; returns "refused", "accepted" or "unclear". */
async function sendCase(c: FuzzCase, t: FuzzTarget, fetch: Fetch, sse: Record<"user" | "app", SseSession>) {
  const session = c.route === "sse" ? sse[c.auth === "app" ? "app" : "user"] : null;
  const path = session ? ssePath(c, session) : c.path;
  const headers: Record<string, string> = { ...authHeader(c, t), accept: "application/json, text/event-stream" };
  if (c.contentType) headers["content-type"] = c.contentType;
  const res = await fetch(`${t.base}${path}`, {
    method: c.method,
    headers,
    body: c.method === "GET" ? undefined : c.oversize ? oversizeBody(c) : (c.body ?? ""),
    redirect: "manual",
  });
  const text = await res.text();
  if (res.status >= 400 && res.status < 500) return text.trim() ? "refused" : "unclear";
  if (res.status >= 300 && res.status < 400)
    return (res.headers.get("location") ?? "").includes("error=") ? "refused" : "unclear";
  if (res.status >= 500) return "unclear";
  if (c.route === "oauth" || c.route === "import") return "accepted";
  if (session && res.status === 202) return sseVerdict(c, session);
  const messages = rpcMessages(text);
  if (messages.length === 0) return c.notification ? "refused" : "unclear";
  return messages.every(isRefusal) ? "refused" : "accepted";
}

/** Runs every case, `concurrency` at a time; /sse answers are matched by JSON-RPC id. */
export async function runFuzz(t: FuzzTarget, cases: FuzzCase[], concurrency: number, onProgress: (n: number) => void) {
  const fetch = watchedFetch(
    t.wire,
    "fuzz",
    [...t.user.owners, ...t.app.owners].map((o) => o.id),
  );
  const sse = {
    user: await openSession(t.base, t.user.key!, fetch),
    app: await openSession(t.base, t.app.key!, fetch),
  };
  const result: FuzzResult = {
    cases: 0,
    refused: 0,
    accepted: [],
    acceptedCount: 0,
    unclear: [],
    unclearCount: 0,
    byRoute: {},
    slowestMs: 0,
  };
  const record = (c: FuzzCase, verdict: string, ms: number) => {
    result.cases++;
    result.byRoute[c.route] = (result.byRoute[c.route] ?? 0) + 1;
    result.slowestMs = Math.max(result.slowestMs, ms);
    const label = `${c.route} ${c.kind} (${c.auth})`;
    if (verdict === "refused") result.refused++;
    else if (verdict === "accepted") {
      result.acceptedCount++;
      if (result.accepted.length < 20) result.accepted.push(label);
    } else {
      result.unclearCount++;
      if (result.unclear.length < 20) result.unclear.push(label);
    }
    if (result.cases % 1000 === 0) onProgress(result.cases);
  };
  const run = async (c: FuzzCase) => {
    const started = performance.now();
    const verdict = await sendCase(c, t, fetch, sse).catch((err: Error) => `unclear: ${err.message}`);
    record(c, verdict, performance.now() - started);
  };
  const queue = [...cases];
  const workers = Array.from({ length: concurrency }, async () => {
    for (let c = queue.shift(); c; c = queue.shift()) await run(c);
  });
  await Promise.all(workers);
  sse.user.close();
  sse.app.close();
  return result;
}
