/**
 * A fake OpenAI-compatible chat server on 127.0.0.1 and a free port, the memory router's upstream in
 * the `router` test project (vitest.config.ts starts it and passes its URL as ROUTER_UPSTREAM_BASE_URL).
 * What it answers depends on the request's `model`:
 *   - `echo`: a completion (or, with stream, three chunks and [DONE]) saying how many messages came;
 *   - `rate-limited`: 429 with OpenAI's error body; `gateway-down`: 502 with an HTML page;
 *   - `stall`: a stream's first chunk, then nothing until the client goes away; `hang`: no answer at all.
 * It records every request (path, Authorization, body, whether the connection was closed before it
 * finished); tests inside workerd read them back from `GET /__requests?test=<metadata.test>`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_UPSTREAM_KEY = "sk-upstream-fake-0123456789";

export interface UpstreamRequest {
  path: string;
  authorization: string | null;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  /** True when the client closed the connection before the answer was complete. */
  closedEarly: boolean;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? null : (JSON.parse(text) as Record<string, unknown>);
}

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "echo",
    choices: [{ index: 0, delta: content === null ? {} : { role: "assistant", content }, finish_reason: finish }],
  })}\n\n`;

export class FakeChatUpstream {
  readonly requests: UpstreamRequest[] = [];
  private server: Server | null = null;

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      if (req.url?.startsWith("/__requests")) {
        const test = new URL(req.url, "http://x").searchParams.get("test");
        const seen = this.requests.filter((r) => (r.body?.metadata as { test?: string } | undefined)?.test === test);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(seen));
        return;
      }
      void readBody(req).then((body) => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : (v ?? "")]),
        );
        const record: UpstreamRequest = {
          path: req.url ?? "",
          authorization: req.headers.authorization ?? null,
          headers,
          body,
          closedEarly: false,
        };
        this.requests.push(record);
        res.on("close", () => {
          if (!res.writableFinished) record.closedEarly = true;
        });
        this.answer(record, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.server.unref();
    return this;
  }

  private answer(r: UpstreamRequest, res: ServerResponse): void {
    if (r.path === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ object: "list", data: [{ id: "echo", object: "model", created: 0, owned_by: "fake" }] }),
      );
      return;
    }
    const model = r.body?.model;
    if (model === "hang") return; // no answer at all, not even headers
    if (model === "rate-limited") {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "7", "x-request-id": "req-429" });
      res.end(
        JSON.stringify({
          error: {
            message: "Rate limit reached for echo",
            type: "rate_limit_error",
            param: null,
            code: "rate_limit_exceeded",
          },
        }),
      );
      return;
    }
    if (model === "gateway-down") {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body>Bad gateway</body></html>");
      return;
    }
    const messages = (r.body?.messages as unknown[]) ?? [];
    const reply = `I read ${messages.length} messages.`;
    if (r.body?.stream === true) {
      res.writeHead(200, { "content-type": "text/event-stream", "x-request-id": "req-stream", "set-cookie": "a=b" });
      res.write(chunk("I read "));
      if (model === "stall") return; // the rest never comes
      setTimeout(() => {
        res.write(chunk(`${messages.length} messages.`));
        res.write(chunk(null, "stop"));
        res.end("data: [DONE]\n\n");
      }, 20);
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-json", "set-cookie": "a=b" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply } }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }),
    );
  }
}
