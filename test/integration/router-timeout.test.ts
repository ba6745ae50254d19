/**
 * The router's time bound (ROUTER_TIMEOUT_SECONDS, its least value here): an upstream that never
 * answers is abandoned with 504 in the API's shape, its request aborted; one whose stream stalls is cut
 * off (the client's stream errors, so it never takes a partial answer for a whole one). Memory is off
 * for these requests, so no Durable Object is involved.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import type { ChatDialect } from "../../src/router/chat-dialect";
import { openAiDialect } from "../../src/router/openai-dialect";
import { type RouteContext, routeChat } from "../../src/router/route-chat";

const config = loadConfig({ ...env, ROUTER_TIMEOUT_SECONDS: "5" });
const headers = new Headers({ "x-hippocampus-memory": "off" });
const body = { model: "m", messages: [{ role: "user", content: "hello" }] };

function context(waited: Promise<unknown>[]): RouteContext {
  return {
    env,
    config,
    caller: {
      principal: {
        accountId: "default",
        scope: "user",
        userId: "timeout-user",
        appName: null,
        keyId: "k",
        credential: "key:k",
        canWrite: true,
      },
      agentHeader: null,
      sessionHeader: null,
    },
    waitUntil: (work) => void waited.push(work),
    signal: new AbortController().signal,
    metric: () => undefined,
  };
}

describe("router time bound", () => {
  it("answers 504 when the upstream never answers, and aborts its request", async () => {
    let aborted = false;
    const dialect: ChatDialect = {
      ...openAiDialect(null, "X"),
      send: (_body, signal) =>
        new Promise<Response>((_resolve, reject) =>
          signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("aborted"));
          }),
        ),
    };
    const res = await routeChat(context([]), dialect, body, headers);
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_timeout");
    expect(aborted).toBe(true);
  });

  it("cuts off a stream that stalls past the bound", async () => {
    const dialect: ChatDialect = {
      ...openAiDialect(null, "X"),
      send: async (_body, signal) => {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("data: first\n\n"));
            signal.addEventListener("abort", () => controller.error(new Error("aborted")));
          },
        });
        return new Response(stream, { headers: { "content-type": "text/event-stream" } });
      },
    };
    const res = await routeChat(context([]), dialect, body, headers);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    await expect(reader.read()).rejects.toThrow();
  });
});
