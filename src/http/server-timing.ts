/**
 * @module http/server-timing
 * The Server-Timing header of every /mcp and /v1/* response: `auth` (key or token check), `do`
 * (waiting on the user's Durable Object), `d1`, `index`, `rank` (measured inside the object and
 * returned with its RPC result), `d1-sql` (D1's own execution time, `meta.timings.sql_duration_ms`:
 * `d1` minus it is the network and the binding's result handling), `total`, and the D1 counts `d1-queries` / `d1-sequential` /
 * `d1-rows-read` / `d1-rows-written` (D1's own `meta.rows_read` / `rows_written`) in `desc`. The D1 figures are the memory operation's; the auth lookup is reported by `auth` alone
 * (its `desc` says whether it came from the cache, D1 or OAuth). Hono's timing middleware writes
 * the header; timing/request-timing.ts gathers the figures.
 */
import type { Context, MiddlewareHandler } from "hono";
import { setMetric, timing } from "hono/timing";
import { RequestTiming, runTimed } from "../timing/request-timing";
import type { AppEnv } from "./app-env";

/**
 * A stateless MCP POST answered as an event stream returns its Response before the tool has run;
 * the header must wait for the stream to end. 2025-era clients are answered in JSON now
 * (mcp/json-answer.ts); a stream still comes from the 2026-era lane, whose transport switches to
 * one when a call sends a notification before its result. Such a stream ends with the answer, so
 * reading it whole changes only when the client gets the bytes, not what it gets. The one stream
 * that does not end is `subscriptions/listen` (2026 era, named by the MCP-Method header the SDK
 * requires and checks against the body): it is passed on as it comes, with the figures so far.
 */
const OPEN_ENDED_METHOD = "subscriptions/listen";

async function untilComplete(c: Context<AppEnv>): Promise<void> {
  const res = c.res;
  const type = res.headers.get("content-type") ?? "";
  if (c.req.method !== "POST" || !type.startsWith("text/event-stream") || !res.body) return;
  // The memory router streams a model's answer as it comes (router/stream-relay.ts): never held back.
  if (c.req.path === "/v1/chat/completions" || c.req.path === "/v1/messages") return;
  if (c.req.header("mcp-method") === OPEN_ENDED_METHOD) return;
  const body = await res.arrayBuffer();
  // Hono's setter, given a new response while one is set, builds yet another Response and copies
  // every header onto it one by one; these headers are the old response's own, so unset it first
  // and build the one Response (the CPU profile put ~10% of a recall's isolate time in that copy).
  c.res = undefined;
  c.res = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

const gather: MiddlewareHandler<AppEnv> = async (c, next) => {
  const t = new RequestTiming();
  await runTimed(t, async () => {
    await next();
    await untilComplete(c);
  });
  const s = t.snapshot();
  setMetric(c, "auth", t.auth.ms, t.auth.source);
  setMetric(c, "do", t.doMs);
  setMetric(c, "d1", s.d1Ms);
  setMetric(c, "d1-sql", s.d1SqlMs);
  setMetric(c, "index", s.phases.index ?? 0);
  setMetric(c, "rank", s.phases.rank ?? 0);
  setMetric(c, "d1-queries", String(s.d1Queries));
  setMetric(c, "d1-sequential", String(s.d1Sequential));
  setMetric(c, "d1-rows-read", String(s.d1RowsRead));
  setMetric(c, "d1-rows-written", String(s.d1RowsWritten));
  setMetric(c, "do-sql-rows-read", String(s.doSqlRowsRead));
  setMetric(c, "do-sql-rows-written", String(s.doSqlRowsWritten));
};

/** Goes first on a route: `total` spans everything after it, auth included. */
export const serverTiming: MiddlewareHandler<AppEnv>[] = [timing({ totalDescription: "server" }), gather];
