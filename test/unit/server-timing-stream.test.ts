import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/app-env";
import { serverTiming } from "../../src/http/server-timing";

/** An event stream that ends only after a later tick, as the MCP handler's does. */
function eventStream(): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(bytes.encode("event: message\n"));
      await new Promise((resolve) => setTimeout(resolve, 5));
      controller.enqueue(bytes.encode('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'));
      controller.close();
    },
  });
}

function app(): Hono<AppEnv> {
  const a = new Hono<AppEnv>();
  a.use("/mcp", ...serverTiming);
  a.use("/mcp", async (c, next) => {
    await next();
    c.res.headers.set("access-control-expose-headers", "Server-Timing");
  });
  a.post(
    "/mcp",
    () =>
      new Response(eventStream(), {
        status: 200,
        headers: { "content-type": "text/event-stream", "mcp-session-id": "s1", "x-extra": "kept" },
      }),
  );
  return a;
}

describe("Server-Timing on an event stream", () => {
  it("waits for the stream's end and keeps its status, every header and every byte", async () => {
    const res = await app().request("/mcp", { method: "POST", body: "{}" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(res.headers.get("mcp-session-id")).toBe("s1");
    expect(res.headers.get("x-extra")).toBe("kept");
    expect(res.headers.get("access-control-expose-headers")).toBe("Server-Timing");
    const timing = res.headers.get("server-timing") ?? "";
    for (const name of ["auth", "do", "d1", "d1-queries", "d1-sequential", "total"]) expect(timing).toContain(name);
    expect(timing.match(/total;/g)).toHaveLength(1);
    expect(await res.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
  });

  it("leaves a JSON answer and a GET untouched", async () => {
    const a = new Hono<AppEnv>();
    a.use("/mcp", ...serverTiming);
    a.post("/mcp", (c) => c.json({ ok: true }, 202, { "x-extra": "kept" }));
    const res = await a.request("/mcp", { method: "POST", body: "{}" });
    expect(res.status).toBe(202);
    expect(res.headers.get("x-extra")).toBe("kept");
    expect(res.headers.get("server-timing")).toContain("total;");
    expect(await res.json()).toEqual({ ok: true });
  });
});
