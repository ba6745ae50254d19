import { exports } from "cloudflare:workers";
/** A real MCP SDK client talking to the worker in-process, over /mcp or the legacy /sse. */
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach } from "vitest";

export function workerFetch(extraHeaders: Record<string, string> = {}) {
  return (url: string | URL, init?: RequestInit) => {
    const request = new Request(url, init);
    request.headers.set("host", "localhost");
    for (const [k, v] of Object.entries(extraHeaders)) request.headers.set(k, v);
    return exports.default.fetch(request);
  };
}

export async function connectMcp(
  key: string,
  opts: { transport?: "mcp" | "sse"; headers?: Record<string, string> } = {},
): Promise<Client> {
  const headers = { authorization: `Bearer ${key}`, ...(opts.headers ?? {}) };
  const client = new Client({ name: "hippocampus-test", version: "1.0.0" });
  const transport =
    opts.transport === "sse"
      ? new SSEClientTransport(new URL("http://localhost/sse"), {
          fetch: workerFetch(headers),
          requestInit: { headers },
        })
      : new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch: workerFetch(headers) });
  await client.connect(transport);
  return client;
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

/** A connect function whose clients are closed after each test (register once at file level). */
export function trackedConnect(): (key: string, opts?: Parameters<typeof connectMcp>[1]) => Promise<Client> {
  const clients = trackedClients();
  return async (key, opts = {}) => {
    const client = await connectMcp(key, opts);
    clients.push(client);
    return client;
  };
}
