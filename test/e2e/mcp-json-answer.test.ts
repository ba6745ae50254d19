import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, observedFetch, postMcp, textOf, trackedConnect } from "../helpers/mcp-client";

/** Stateless POST /mcp from 2025-era clients: one JSON body (mcp/json-answer.ts), the rest unchanged. */
const connectMcp = trackedConnect();
const v1Clients: ClientV1[] = [];
afterEach(async () => {
  await Promise.all(v1Clients.splice(0).map((c) => c.close().catch(() => {})));
});

interface Seen {
  method: string;
  status: number;
  type: string;
  timing: string | null;
}

/** Every response a client gets, with the HTTP method it answers. */
function recorder(): { seen: Seen[]; observe: (response: Response, init: RequestInit | undefined) => void } {
  const seen: Seen[] = [];
  return {
    seen,
    observe: (response, init) =>
      seen.push({
        method: init?.method ?? "GET",
        status: response.status,
        type: response.headers.get("content-type") ?? "",
        timing: response.headers.get("server-timing"),
      }),
  };
}

/** A 2025-era client's POST (its protocol version header set). */
const post = (key: string, body: string, headers: Record<string, string> = {}) =>
  postMcp(key, body, { "mcp-protocol-version": "2025-06-18", ...headers });

const toolsList = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

describe("POST /mcp answered in JSON for 2025-era clients", () => {
  it("the MCP SDK v2 client (2025 era) gets application/json answers, 202 for notifications, Server-Timing on each", async () => {
    const { key } = await createKey({ user: uniqueUser("json-v2") });
    const { seen, observe } = recorder();
    const client = await connectMcp(key, { observe });
    const saved = await callTool(client, "save_memory", { content: "The build cache lives on the NAS in the attic" });
    expect(saved.isError ?? false).toBe(false);
    const recalled = await callTool(client, "recall_memory", { query: "where is the build cache", limit: 5 });
    expect(textOf(recalled)).toContain("NAS in the attic");
    const posts = seen.filter((s) => s.method === "POST");
    expect(posts.length).toBeGreaterThanOrEqual(4); // initialize, initialized, two tool calls
    for (const s of posts) {
      expect(s.timing, JSON.stringify(s)).toMatch(/total;dur=/);
      if (s.status === 202) expect(s.type).toBe("");
      else expect([s.status, s.type]).toEqual([200, "application/json"]);
    }
    expect(posts.filter((s) => s.status === 202)).toHaveLength(1); // notifications/initialized
  });

  it("the MCP SDK v1 client (1.32.2) gets application/json answers and tool errors as results", async () => {
    const { key } = await createKey({ user: uniqueUser("json-v1") });
    const { seen, observe } = recorder();
    const fetch = observedFetch({ authorization: `Bearer ${key}` }, observe);
    const client = new ClientV1({ name: "hippocampus-test-v1", version: "1.0.0" });
    v1Clients.push(client);
    await client.connect(new TransportV1(new URL("http://localhost/mcp"), { fetch }));
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain("recall_memory");
    const bad = await client.callTool({ name: "save_memory", arguments: { content: "" } });
    expect(bad.isError).toBe(true);
    const answers = seen.filter((s) => s.method === "POST" && s.status !== 202);
    expect(answers.map((s) => s.type)).toEqual(["application/json", "application/json", "application/json"]);
  });

  it("keeps an event stream out: Accept without application/json is refused as before (406)", async () => {
    const { key } = await createKey({ user: uniqueUser("json-sse-only") });
    const res = await post(key, JSON.stringify(toolsList(1)), { accept: "text/event-stream" });
    expect(res.status).toBe(406);
    expect(res.headers.get("server-timing")).toMatch(/total;dur=/);
    expect(await res.json()).toMatchObject({
      error: { code: -32000, message: expect.stringContaining("Not Acceptable") },
    });
  });

  it("answers a batch with an array, a notification with 202, bad JSON and bad JSON-RPC with 400", async () => {
    const { key } = await createKey({ user: uniqueUser("json-raw") });
    const batch = await post(key, JSON.stringify([toolsList(1), toolsList(2)]));
    expect([batch.status, batch.headers.get("content-type")]).toEqual([200, "application/json"]);
    const answers = (await batch.json()) as { id: number; result: { tools: unknown[] } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
    expect(answers[0].result.tools.length).toBeGreaterThan(0);

    const note = await post(key, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(note.status).toBe(202);
    expect(note.headers.get("server-timing")).toMatch(/total;dur=/);

    for (const [body, code, id] of [
      ['{"jsonrpc":', -32700, null],
      ["", -32700, null],
      ['{"jsonrpc":"1.0","id":1,"method":"tools/list"}', -32600, 1], // not JSON-RPC 2.0: the SDK's entry answers
      ["[]", -32600, null],
    ] as const) {
      const res = await post(key, body);
      expect(res.status, body).toBe(400);
      expect(res.headers.get("server-timing"), body).toMatch(/total;dur=/);
      expect(await res.json(), body).toMatchObject({ jsonrpc: "2.0", error: { code }, id });
    }
  });

  it("answers an unknown tool and an unknown method with JSON-RPC errors, in JSON", async () => {
    const { key } = await createKey({ user: uniqueUser("json-unknown") });
    const unknown = await post(key, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no/such" }));
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32601 } });
    const tool = await post(
      key,
      JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "no_such_tool", arguments: {} } }),
    );
    expect(tool.headers.get("content-type")).toBe("application/json");
    const body = (await tool.json()) as { id: number; result?: { isError?: boolean }; error?: unknown };
    expect(body.id).toBe(8);
    expect(body.result?.isError ?? body.error !== undefined).toBe(true);
  });

  it("refuses a foreign Host on a local endpoint (403), as agents' handler does", async () => {
    const { key } = await createKey({ user: uniqueUser("json-host") });
    const res = await post(key, JSON.stringify(toolsList(1)), { host: "evil.example" });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { message: "Invalid Host: evil.example" } });
  });

  it("still serves the 2026-era lane (agents' handler) to a client that pins it", async () => {
    const { key } = await createKey({ user: uniqueUser("json-modern") });
    const { seen, observe } = recorder();
    const fetch = observedFetch({ authorization: `Bearer ${key}` }, observe);
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
    const client = connectMcp.track(
      new ClientV2({ name: "modern", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch }));
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain("recall_memory");
    expect(seen.every((s) => s.timing?.includes("total;dur="))).toBe(true);
  });
});
