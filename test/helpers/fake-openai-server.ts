/**
 * A local HTTP server shaped by the OpenAI API (POST /v1/embeddings, POST /v1/chat/completions), on
 * 127.0.0.1 and a free port, for the OpenAI-compatible adapters' tests in Node. It records every
 * request and answers as its `mode` says: well, with an error status, never, off-size vectors, too
 * few vectors, a body that is not JSON, or a chat answer that does not match the schema; and in the
 * hostile modes of test/helpers/hostile-upstream.ts (non-finite and huge vectors, a 400 MB or a
 * never-ending body, injection and secrets in every answer, a 307 to another origin), served through
 * the socket so the bytes the client really pulled are counted (`record`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CHAT_ANSWERS, type HostileMode, hostileAnswer, newRecord, vectorOf } from "./hostile-upstream";

export type FakeMode = "ok" | "error" | "hang" | "wrong-dims" | "too-few" | "not-json" | "off-schema" | HostileMode;

const HOSTILE_ONLY = new Set<string>([
  "non-finite",
  "huge-vector",
  "huge-body",
  "slow-body",
  "slow-headers",
  "injection",
  "redirect",
]);

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

export class FakeOpenAiServer {
  mode: FakeMode = "ok";
  readonly requests: RecordedRequest[] = [];
  /** What the hostile modes saw: bytes the client pulled (socket writes that completed), cancels, requests. */
  readonly record = newRecord();
  /** Where the "redirect" mode points (another origin: set it to a second FakeOpenAiServer's baseUrl). */
  redirectTo = "http://127.0.0.2:9/v1";
  private server: Server | null = null;

  constructor(readonly dims: number) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.requests.push({ path: req.url ?? "", authorization: req.headers.authorization, body });
        if (HOSTILE_ONLY.has(this.mode)) return void this.hostile(req.url ?? "", body, res);
        if (this.mode === "hang") return; // never answers
        if (this.mode === "error") {
          res.writeHead(500, { "content-type": "application/json" });
          // A real server may echo the request: the adapter must not pass this on.
          res.end(JSON.stringify({ error: { message: `failed on ${JSON.stringify(body)}` } }));
          return;
        }
        if (this.mode === "not-json") {
          res.writeHead(200, { "content-type": "text/html" });
          res.end("<html>gateway</html>");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(req.url === "/v1/embeddings" ? this.embeddings(body) : this.chat(body)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  /** A hostile answer, piped to the socket with backpressure: only what the client reads gets written. */
  private async hostile(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const answer = await hostileAnswer(this.mode as HostileMode, path, body, this.dims, this.record, this.redirectTo);
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => (headers[k] = v));
    res.writeHead(answer.status, headers);
    if (!answer.body) return void res.end();
    const reader = answer.body.getReader();
    let closed = false;
    res.on("close", () => {
      closed = true;
      void reader.cancel().catch(() => undefined);
    });
    while (!closed) {
      const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (done || closed) break;
      if (!res.write(value)) await drained(res);
    }
    if (!closed) res.end();
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The OpenAI answer, in reverse order with each item's `index` (clients must sort by it). */
  private embeddings(body: Record<string, unknown>) {
    const input = body.input as string[];
    const dims = this.mode === "wrong-dims" ? this.dims / 2 : this.dims;
    const kept = this.mode === "too-few" ? input.slice(1) : input;
    const data = kept.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text, dims) }));
    return { object: "list", model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } };
  }

  private chat(body: Record<string, unknown>) {
    const format = body.response_format as { json_schema: { name: string } };
    const answer = this.mode === "off-schema" ? { unexpected: true } : CHAT_ANSWERS[format.json_schema.name];
    return {
      id: "chatcmpl-1",
      object: "chat.completion",
      model: body.model,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(answer) } }],
    };
  }
}

/** The fake's vector for `text`, as the adapter should return it (L2-normalised). */
export function expectedVector(text: string, dims: number): number[] {
  const v = vectorOf(text, dims);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Resolves when `res` can take more (drain) or is gone (close), leaving no listener behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done).once("close", done);
  });
}
