/**
 * A legacy SSE session belongs to the credential that opened it. Another
 * credential posting to its message endpoint gets 404, and so does any session id the server did
 * not issue (chosen by the client on GET /sse, or made up on POST).
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { openRawSse } from "../helpers/mcp-client";

function request(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  const r = new Request(`http://localhost${path}`, init);
  r.headers.set("host", "localhost");
  r.headers.set("authorization", `Bearer ${key}`);
  return exports.default.fetch(r);
}

function post(path: string, key: string, body: unknown): Promise<Response> {
  return request(path, key, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

describe("legacy SSE session binding", () => {
  it("refuses another credential on a session's message endpoint with 404", async () => {
    const alice = await createKey({ user: uniqueUser("alice") });
    const mallory = await createKey({ user: uniqueUser("mallory") });
    const session = await openRawSse(alice.key);
    try {
      const stolen = await post(session.endpoint, mallory.key, initialize);
      expect(stolen.status).toBe(404);
      expect(await stolen.text()).not.toContain("Accepted");
      const own = await post(session.endpoint, alice.key, initialize);
      expect(own.status).toBe(202);
    } finally {
      await session.close();
    }
  });

  it("a second key of the same user is still another credential", async () => {
    const user = uniqueUser("dev");
    const laptop = await createKey({ user });
    const phone = await createKey({ user });
    const session = await openRawSse(laptop.key);
    try {
      expect((await post(session.endpoint, phone.key, initialize)).status).toBe(404);
    } finally {
      await session.close();
    }
  });

  it("refuses a client-chosen session id on GET /sse and a made-up one on POST", async () => {
    const key = (await createKey({ user: uniqueUser("eve") })).key;
    const chosen = await request("/sse?sessionId=0123456789abcdef", key, { headers: { accept: "text/event-stream" } });
    expect(chosen.status).toBe(404);
    await chosen.body?.cancel();
    const madeUp = await post(`/sse/message?sessionId=${"ab".repeat(32)}`, key, initialize);
    expect(madeUp.status).toBe(404);
    const missing = await post("/sse/message", key, initialize);
    expect(missing.status).toBe(404);
  });
});
