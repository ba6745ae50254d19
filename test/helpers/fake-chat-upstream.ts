/**
 * A fake OpenAI-compatible chat server on 127.0.0.1 and a free port, the memory router's upstream in
 * the `router` test project (vitest.config.ts starts it and passes its URL as ROUTER_UPSTREAM_BASE_URL).
 * What it answers depends on the request's `model`:
 *   - `echo`: a completion (or, with stream, three chunks and [DONE]) saying how many messages came;
 *   - `rate-limited`: 429 with OpenAI's error body; `gateway-down`: 502 with an HTML page;
 *   - `stall`: a stream's first chunk, then nothing until the client goes away; `hang`: no answer at all.
 * It records every request (path, Authorization, body, whether the connection was closed before it
 * finished); tests inside workerd read them back from `GET /__requests?test=<tag>`, the tag being the
 * body's `metadata.test` (OpenAI) or `metadata.user_id` (Anthropic). `POST /v1/messages` answers in
 * Anthropic's shape (a message, or its stream of events), `rate-limited` with Anthropic's 429.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_UPSTREAM_KEY = "sk-upstream-fake-0123456789";
export const FAKE_ANTHROPIC_KEY = "sk-ant-upstream-fake-0123456789";

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
        const seen = this.requests.filter((r) => {
          const tags = r.body?.metadata as { test?: string; user_id?: string } | undefined;
          return tags?.test === test || tags?.user_id === test;
        });
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
    if (r.path === "/v1/messages") {
      this.anthropic(r, res);
      return;
    }
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

  /** Anthropic's Messages API: a message saying how many messages came, streamed as its events or whole. */
  private anthropic(r: UpstreamRequest, res: ServerResponse): void {
    if (r.body?.model === "rate-limited") {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "9", "request-id": "req-ant-429" });
      res.end(
        JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "Number of requests exceeded" } }),
      );
      return;
    }
    const count = ((r.body?.messages as unknown[]) ?? []).length;
    const message = {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model: r.body?.model,
      content: [{ type: "text", text: `I read ${count} messages.` }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    };
    if (r.body?.stream !== true) {
      res.writeHead(200, { "content-type": "application/json", "request-id": "req-ant" });
      res.end(JSON.stringify(message));
      return;
    }
    const event = (type: string, data: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    res.writeHead(200, { "content-type": "text/event-stream", "request-id": "req-ant-stream" });
    res.write(event("message_start", { message: { ...message, content: [], stop_reason: null } }));
    res.write(event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }));
    res.write(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "I read " } }));
    setTimeout(() => {
      res.write(event("content_block_delta", { index: 0, delta: { type: "text_delta", text: `${count} messages.` } }));
      res.write(event("content_block_stop", { index: 0 }));
      res.write(
        event("message_delta", {
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 5 },
        }),
      );
      res.end(event("message_stop", {}));
    }, 20);
  }
}
