import { exports } from "cloudflare:workers";
/** A real MCP SDK client talking to the worker in-process, over /mcp or the legacy /sse. */
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, expect } from "vitest";

export function workerFetch(extraHeaders: Record<string, string> = {}) {
  return (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("host", "localhost");
    for (const [k, v] of Object.entries(extraHeaders)) request.headers.set(k, v);
    return exports.default.fetch(request);
  };
}

/** A raw JSON-RPC POST to /mcp with an API key, as a client that speaks both answer formats sends it. */
export function postMcp(key: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return exports.default.fetch(
    new Request("http://localhost/mcp", {
      method: "POST",
      body,
      headers: {
        host: "localhost",
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
    }),
  );
}

export interface ConnectOptions {
  transport?: "mcp" | "sse";
  headers?: Record<string, string>;
  /** Sees every response the client receives, with the request it answers (e.g. to read a header). */
  observe?: (response: Response, init: RequestInit | undefined) => void;
}

/** workerFetch that also hands every response (and the request's init) to `observe`, when given. */
export function observedFetch(
  extraHeaders: Record<string, string>,
  observe?: (response: Response, init: RequestInit | undefined) => void,
) {
  const send = workerFetch(extraHeaders);
  if (!observe) return send;
  return async (url: string | URL, init?: RequestInit) => {
    const response = await send(url, init);
    observe(response, init);
    return response;
  };
}

export async function connectMcp(key: string, opts: ConnectOptions = {}): Promise<Client> {
  const headers = { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) };
  const fetch = observedFetch(headers, opts.observe);
  const client = new Client({ name: "hippocampus-test", version: "1.0.0" });
  const transport =
    opts.transport === "sse"
      ? new SSEClientTransport(new URL("http://localhost/sse"), { fetch, requestInit: { headers } })
      : new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch });
  await client.connect(transport);
  return client;
}

/**
 * A raw legacy SSE stream (no MCP client): GET /sse, read up to the `endpoint` event, and return the
 * message path it names plus a closer. For tests that post into a session by hand.
 */
export async function openRawSse(key: string): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const res = await workerFetch({ authorization: `Bearer ${key}`, accept: "text/event-stream" })(
    "http://localhost/sse",
  );
  expect(res.status).toBe(200);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (let i = 0; i < 20 && !/event: endpoint\ndata: \S+\n/.test(text); i++) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  const endpoint = /event: endpoint\ndata: (\S+)\n/.exec(text)?.[1];
  expect(endpoint, text).toBeDefined();
  return { endpoint: endpoint ?? "", close: () => reader.cancel().catch(() => undefined) };
}

type ToolResult = {
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
  isError?: boolean;
};

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

export function textOf(result: ToolResult): string {
  return result.content.map((c) => c.text ?? "").join("\n");
}

/** Clients opened by a test file, closed after each test (register once at file level). */
export function trackedClients(): Client[] {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  });
  return clients;
}

/** A connect function whose clients are closed after each test, and `track` for clients opened another way (OAuth). */
export type TrackedConnect = ((key: string, opts?: ConnectOptions) => Promise<Client>) & {
  track<C extends Client>(client: C): C;
};

/** A connect function whose clients are closed after each test (register once at file level). */
export function trackedConnect(): TrackedConnect {
  const clients = trackedClients();
  const track = <C extends Client>(client: C): C => {
    clients.push(client);
    return client;
  };
  return Object.assign(async (key: string, opts: ConnectOptions = {}) => track(await connectMcp(key, opts)), { track });
}
