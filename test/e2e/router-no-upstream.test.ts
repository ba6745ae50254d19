/**
 * The memory router without an upstream (the default test config sets none): both routes answer
 * 503 in OpenAI's shape, naming the var the operator sets, after authenticating the caller.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";

const call = (path: string, key: string, body?: unknown) =>
  exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

describe("memory router without an upstream", () => {
  it("answers 503 naming ROUTER_UPSTREAM_BASE_URL, in OpenAI's error shape", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    for (const res of [
      await call("/v1/chat/completions", key, { model: "m", messages: [{ role: "user", content: "hi" }] }),
      await call("/v1/models", key),
    ]) {
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: { message: string; type: string; code: string } };
      expect(body.error.message).toContain("ROUTER_UPSTREAM_BASE_URL");
      expect(body.error).toMatchObject({ type: "server_error", code: "router_not_configured" });
    }
  });

  it("refuses a missing key with 401 in OpenAI's shape before anything else", async () => {
    const res = await exports.default.fetch(
      new Request("http://localhost/v1/chat/completions", {
        method: "POST",
        headers: { host: "localhost" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("authentication_error");
  });

  it("refuses a body over ROUTER_MAX_BODY_BYTES with 413, and a body that is not JSON with 400", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const big = await call("/v1/chat/completions", key, {
      model: "m",
      messages: [{ role: "user", content: "x".repeat(8_400_000) }],
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    const notJson = await exports.default.fetch(
      new Request("http://localhost/v1/chat/completions", {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: "{not json",
      }),
    );
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("answers a browser's preflight before auth and lets the page read the memory headers", async () => {
    const preflight = await exports.default.fetch(
      new Request("http://localhost/v1/chat/completions", {
        method: "OPTIONS",
        headers: {
          host: "localhost",
          origin: "https://chat.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, x-stainless-os, x-conversation-id",
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-stainless-os");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const { key } = await createKey({ user: uniqueUser("router") });
    const res = await exports.default.fetch(
      new Request("http://localhost/v1/models", {
        headers: { host: "localhost", origin: "https://chat.example", authorization: `Bearer ${key}` },
      }),
    );
    expect(res.headers.get("access-control-expose-headers")).toContain("X-Hippocampus-Memories");
  });
});
