/**
 * @module http/sse-sessions
 * Binds every legacy SSE session to the credential that opened it. GET /sse
 * always gets a session id the server chooses (a client-chosen `sessionId` is refused), recorded
 * with the caller's credential; a POST to /sse/message is let through only for an id this server
 * issued to the same credential. Anything else is 404, so a leaked session id gives nothing away.
 */
import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { errorBody } from "./error-response";

/** How long an issued session id stays usable (older clients reconnect with a fresh GET /sse). */
export const SSE_SESSION_MAX_AGE_MS = 24 * 3600_000;

function unknownSession(c: Context<AppEnv>): Response {
  return c.json(errorBody("not_found", "Unknown SSE session: open one with GET /sse using this credential"), 404);
}

/**
 * The request to hand to the SSE transport, or a 404 response. For GET /sse the returned request
 * carries the newly issued session id; for POST /sse/message it is the request as it came.
 */
export async function bindSseSession(c: Context<AppEnv>): Promise<Request | Response> {
  const url = new URL(c.req.url);
  const credential = c.get("principal")!.credential;
  const repo = c.var.services().accounts().sseSessions;
  const now = Date.now();
  const presented = url.searchParams.get("sessionId");
  if (c.req.method === "GET") {
    if (presented !== null) return unknownSession(c);
    const id = c.env.SSE_SESSION.newUniqueId().toString();
    await repo.issue(id, credential, now, SSE_SESSION_MAX_AGE_MS);
    url.searchParams.set("sessionId", id);
    return new Request(url, c.req.raw);
  }
  if (!presented || !(await repo.isBound(presented, credential, now, SSE_SESSION_MAX_AGE_MS))) return unknownSession(c);
  return c.req.raw;
}
