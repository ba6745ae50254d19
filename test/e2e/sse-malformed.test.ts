/**
 * Malformed messages posted into a legacy SSE session get a 400 with a JSON-RPC error; the agents
 * SDK used to answer them with a 500 (found by the reliability run's fuzzer). A valid message
 * still goes through.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { jsonDepth, MAX_JSON_DEPTH } from "../../src/http/sse-message-guard";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { openRawSse } from "../helpers/mcp-client";

function post(key: string, endpoint: string, body: string) {
  return exports.default.fetch(
    new Request(`http://localhost${endpoint}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body,
    }),
  );
}

describe("a malformed message into a legacy SSE session", () => {
  it("gets 400 with a JSON-RPC error, for junk, deep nesting, batches and non-JSON-RPC", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const session = await openRawSse(key);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${"[".repeat(5000)}${"]".repeat(5000)}}}`;
    const cases = [
      ["\u0000", -32700],
      ['{"jsonrpc":', -32700],
      [deep, -32600],
      ['[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]', -32600],
      ['{"jsonrpc":"1.0","id":1,"method":"tools/list"}', -32600],
      ['{"jsonrpc":"2.0","id":{},"method":"tools/list"}', -32600],
    ] as const;
    for (const [body, code] of cases) {
      const res = await post(key, session.endpoint, body);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code } });
    }
    const ok = await post(key, session.endpoint, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(ok.status).toBe(202);
    await session.close();
  });

  it("measures depth in one pass, ignoring brackets inside strings", () => {
    expect(jsonDepth('{"a":[1,{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"\\"[["')).toBe(0);
    expect(jsonDepth("[".repeat(MAX_JSON_DEPTH + 1))).toBe(MAX_JSON_DEPTH + 1);
  });
});
