import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { allowedOrigin } from "../../src/http/mcp-cors";
import { createKey, uniqueUser } from "../helpers/api-keys";

const ORIGIN = "https://chat.example.com";

function send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  const request = new Request(`http://localhost${path}`, init);
  request.headers.set("host", "localhost");
  return exports.default.fetch(request);
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "browser", version: "1" } },
});

function list(header: string | null): string[] {
  return (header ?? "").split(",").map((h) => h.trim().toLowerCase());
}

describe("CORS on /mcp for browser MCP clients", () => {
  it("answers a preflight without credentials, allowing the MCP headers", async () => {
    const res = await send("/mcp", {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(list(res.headers.get("access-control-allow-headers"))).toEqual(
      expect.arrayContaining([
        "authorization",
        "content-type",
        "mcp-protocol-version",
        "mcp-session-id",
        "last-event-id",
      ]),
    );
    expect(list(res.headers.get("access-control-allow-methods"))).toEqual(
      expect.arrayContaining(["post", "get", "delete"]),
    );
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("puts CORS headers on the 401, exposing WWW-Authenticate", async () => {
    const res = await send("/mcp", {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: initialize,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(list(res.headers.get("access-control-expose-headers"))).toEqual(
      expect.arrayContaining(["www-authenticate", "mcp-session-id"]),
    );
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  it("puts CORS headers on an authenticated MCP answer", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const res = await send("/mcp", {
      method: "POST",
      headers: {
        origin: ORIGIN,
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: initialize,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(list(res.headers.get("access-control-expose-headers"))).toContain("mcp-session-id");
    await res.body?.cancel();
  });

  it("gives the cookie-free API no credentials and other routes no CORS", async () => {
    const res = await send("/health", { headers: { origin: ORIGIN } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("CORS_ORIGINS narrows the allowed origins and rejects non-origins", () => {
    const origins = loadConfig({ CORS_ORIGINS: "https://a.example, http://localhost:5173" }).CORS_ORIGINS;
    expect(origins).toEqual(["https://a.example", "http://localhost:5173"]);
    expect(allowedOrigin(origins, "https://a.example")).toBe("https://a.example");
    expect(allowedOrigin(origins, "https://evil.example")).toBeNull();
    expect(loadConfig({}).CORS_ORIGINS).toBe("*");
    expect(() => loadConfig({ CORS_ORIGINS: "https://a.example/path" })).toThrow(/CORS_ORIGINS.*not an origin/);
  });
});
