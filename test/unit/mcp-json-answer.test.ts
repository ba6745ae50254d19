import { InMemoryTransport, McpServer, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { acceptsJsonAnswer, hostRejection, serveJsonOrFallback } from "../../src/mcp/json-answer";

function request(method: string, headers: Record<string, string>, url = "http://localhost/mcp"): Request {
  return new Request(url, { method, headers, body: method === "POST" ? "{}" : undefined });
}

describe("which /mcp requests the JSON lane may take", () => {
  it("takes a POST whose Accept lists application/json, with or without the event stream", () => {
    expect(acceptsJsonAnswer(request("POST", { accept: "application/json, text/event-stream" }))).toBe(true);
    expect(acceptsJsonAnswer(request("POST", { accept: "text/event-stream, application/json;q=0.9" }))).toBe(true);
    expect(acceptsJsonAnswer(request("POST", { accept: "application/json" }))).toBe(true);
  });

  it("leaves an Accept without application/json, no Accept, and every other method to agents' handler", () => {
    expect(acceptsJsonAnswer(request("POST", { accept: "text/event-stream" }))).toBe(false);
    expect(acceptsJsonAnswer(request("POST", {}))).toBe(false);
    for (const method of ["GET", "DELETE", "OPTIONS"])
      expect(acceptsJsonAnswer(request(method, { accept: "application/json, text/event-stream" })), method).toBe(false);
  });
});

describe("the Host check agents' handler runs before its lanes", () => {
  it("accepts the loopback names on a local endpoint, with a port", () => {
    for (const host of ["localhost", "127.0.0.1:8787", "[::1]:8787"])
      expect(hostRejection(request("POST", { host })), host).toBeUndefined();
  });

  it("refuses another Host on a local or workers.dev endpoint with a JSON-RPC 403", async () => {
    const local = hostRejection(request("POST", { host: "evil.example" }));
    expect(local?.status).toBe(403);
    expect(await local?.json()).toMatchObject({ jsonrpc: "2.0", error: { message: "Invalid Host: evil.example" } });
    const dev = hostRejection(request("POST", { host: "evil.example" }, "https://mem.acct.workers.dev/mcp"));
    expect(dev?.status).toBe(403);
    expect(hostRejection(request("POST", { host: "mem.acct.workers.dev" }, "https://mem.acct.workers.dev/mcp"))).toBe(
      undefined,
    );
  });

  it("does not check the Host of a custom domain (agents does not either)", () => {
    expect(hostRejection(request("POST", { host: "other.example" }, "https://memory.example.com/mcp"))).toBeUndefined();
  });
});

describe("the JSON lane's answers", () => {
  const post = (body: string, accept = "application/json, text/event-stream") =>
    new Request("http://localhost/mcp", {
      method: "POST",
      body,
      headers: { host: "localhost", accept, "content-type": "application/json", "mcp-protocol-version": "2025-06-18" },
    });
  const server = () => new McpServer({ name: "t", version: "1" }, { capabilities: { tools: {} } });
  const noFallback = () => Promise.reject(new Error("fallback called"));

  it("answers a 2025-era request in JSON itself, and hands any other request on with its body intact", async () => {
    const ping = await serveJsonOrFallback(post('{"jsonrpc":"2.0","id":3,"method":"ping"}'), server, noFallback);
    expect(ping.headers.get("content-type")).toBe("application/json");
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    const seen: string[] = [];
    const fallback = async (r: Request) => {
      seen.push(`${r.headers.get("accept")} ${await r.text()}`);
      return new Response(null, { status: 204 });
    };
    await serveJsonOrFallback(post('{"jsonrpc":"2.0","id":1,"method":"ping"}', "text/event-stream"), server, fallback);
    // A 2026-era request claims its revision in _meta (the SDK's classification makes it modern).
    const claim = { [PROTOCOL_VERSION_META_KEY]: "2026-07-28" };
    const modern = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: claim } });
    await serveJsonOrFallback(post(modern), server, fallback);
    expect(seen).toEqual([
      'text/event-stream {"jsonrpc":"2.0","id":1,"method":"ping"}',
      `application/json, text/event-stream ${modern}`,
    ]);
  });

  it("answers a failure with a JSON-RPC 500 naming the request's id, no stack", async () => {
    const busy = server();
    await busy.connect(InMemoryTransport.createLinkedPair()[0]);
    const res = await serveJsonOrFallback(post('{"jsonrpc":"2.0","id":9,"method":"ping"}'), () => busy, noFallback);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32603, message: "Internal server error" },
      id: 9,
    });
  });
});
