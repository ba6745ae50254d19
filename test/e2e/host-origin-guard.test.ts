import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { buildRouteServices } from "../../src/composition";
import { buildApp } from "../../src/http/app";
import { createKey, uniqueUser } from "../helpers/api-keys";

const app = buildApp({ routeServices: buildRouteServices });
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

/** The real app with some vars changed (loadConfig parses each env object once). */
function fetchWith(vars: Record<string, string>) {
  const patched = { ...env, ...vars };
  return async (request: Request): Promise<Response> => {
    const ctx = createExecutionContext();
    const response = await app.fetch(request, patched, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "guard-test", version: "1" } },
});

function mcpPost(base: string, key: string, headers: Record<string, string> = {}): Request {
  return new Request(`${base}/mcp`, {
    method: "POST",
    body: initialize,
    headers: {
      host: new URL(base).host,
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
  });
}

/** An MCP SDK client (no Origin, as mcp-remote and desktop clients send) through `send`. */
async function sdkClient(base: string, key: string, send: (r: Request) => Promise<Response>): Promise<Client> {
  const fetch = (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("host", new URL(url).host); // what every HTTP/1.1 client sends
    request.headers.set("authorization", `Bearer ${key}`);
    return send(request);
  };
  const client = new Client({ name: "guard-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { fetch }));
  clients.push(client);
  return client;
}

describe("DNS-rebinding protection on a loopback server (LOOPBACK_ONLY=on)", () => {
  const send = fetchWith({ LOOPBACK_ONLY: "on", CORS_ORIGINS: "https://app.example.com" });

  it("refuses a non-loopback Host on every kind of route, before auth", async () => {
    const { key } = await createKey({ user: uniqueUser("dns") });
    const evil = "http://evil.example.com:8787";
    const refused = [
      mcpPost(evil, key, { origin: evil }),
      mcpPost(evil, key),
      new Request(`${evil}/sse`, { headers: { authorization: `Bearer ${key}` } }),
      new Request(`${evil}/v1/export`, { headers: { authorization: `Bearer ${key}` } }),
      new Request(`${evil}/dashboard`),
      new Request(`${evil}/.well-known/oauth-authorization-server`),
      new Request(`${evil}/token`, { method: "POST", body: "grant_type=x" }),
      new Request(`${evil}/authorize?client_id=x`),
    ];
    for (const request of refused) {
      const res = await send(request);
      expect(res.status, request.url).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden", message: expect.stringMatching(/Invalid Host/) });
    }
  });

  it("refuses a non-loopback Origin on a loopback Host, and 'null' outside the cookie routes", async () => {
    const { key } = await createKey({ user: uniqueUser("dns") });
    for (const origin of ["http://evil.example.com", "null", "https://app.example.com.evil.example"]) {
      const res = await send(mcpPost("http://127.0.0.1:8787", key, { origin }));
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden", message: expect.stringMatching(/Origin/) });
    }
  });

  it("keeps real clients working: SDK client (no Origin), Inspector on localhost:6274, a listed origin", async () => {
    const { key } = await createKey({ user: uniqueUser("dns") });
    for (const base of ["http://localhost:8787", "http://127.0.0.1:8787", "http://[::1]:8787"]) {
      const client = await sdkClient(base, key, send);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    }
    for (const origin of ["http://localhost:6274", "http://127.0.0.1:6274", "https://app.example.com"]) {
      const res = await send(mcpPost("http://localhost:8787", key, { origin }));
      expect(res.status, origin).toBe(200);
    }
  });

  it("leaves the consent page's Origin: null form post to its own checks", async () => {
    const res = await send(
      new Request("http://localhost:8787/authorize", {
        method: "POST",
        headers: { origin: "null", "content-type": "application/x-www-form-urlencoded" },
        body: "handle=unknown",
      }),
    );
    expect(res.status).not.toBe(403);
    const page = await send(new Request("http://localhost:8787/dashboard", { headers: { origin: "null" } }));
    expect(page.status).toBe(200);
  });
});

describe("Origin allowlist on a deployment (CORS_ORIGINS set)", () => {
  const base = "https://memory.example.com";
  const send = fetchWith({ CORS_ORIGINS: "https://app.example.com" });

  it("refuses an Origin outside CORS_ORIGINS on /mcp, /v1/* and the OAuth endpoints", async () => {
    const { key } = await createKey({ user: uniqueUser("cors") });
    const origin = "https://evil.example";
    const refused = [
      mcpPost(base, key, { origin }),
      new Request(`${base}/mcp`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      }),
      new Request(`${base}/v1/export`, { headers: { authorization: `Bearer ${key}`, origin } }),
      new Request(`${base}/token`, { method: "POST", headers: { origin }, body: "grant_type=x" }),
      new Request(`${base}/register`, { method: "POST", headers: { origin }, body: "{}" }),
    ];
    for (const request of refused) {
      const res = await send(request);
      expect(res.status, `${request.method} ${request.url}`).toBe(403);
      expect(await res.json()).toMatchObject({ error: "forbidden", message: expect.stringContaining("CORS_ORIGINS") });
    }
  });

  it("lets a listed origin, the server's own origin and clients without Origin through", async () => {
    const { key } = await createKey({ user: uniqueUser("cors") });
    const listed = await send(mcpPost(base, key, { origin: "https://app.example.com" }));
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect((await send(mcpPost(base, key, { origin: base }))).status).toBe(200);
    const client = await sdkClient(base, key, send);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it("leaves the cookie routes to their own Origin checks", async () => {
    const res = await send(
      new Request(`${base}/dashboard/sign-in`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
        body: "key=x",
      }),
    );
    // The dashboard's own check answers (a page, not the guard's JSON 403).
    expect(res.headers.get("content-type") ?? "").toContain("text/html");
  });

  it("by default (CORS_ORIGINS unset) lets any Origin call, and does not guard the Host", async () => {
    const open = fetchWith({});
    const { key } = await createKey({ user: uniqueUser("cors") });
    const res = await open(mcpPost("http://evil.example.com", key, { origin: "https://evil.example" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
