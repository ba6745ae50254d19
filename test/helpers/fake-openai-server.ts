/**
 * A local HTTP server shaped by the OpenAI API (POST /v1/embeddings, POST /v1/chat/completions), on
 * 127.0.0.1 and a free port, for the OpenAI-compatible adapters' tests in Node. It records every
 * request and answers as its `mode` says: well, with an error status, never, off-size vectors, too
 * few vectors, a body that is not JSON, or a chat answer that does not match the schema.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeMode = "ok" | "error" | "hang" | "wrong-dims" | "too-few" | "not-json" | "off-schema";

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** What the chat endpoint answers per task (the json_schema name the adapter sends). */
const CHAT_ANSWERS: Record<string, unknown> = {
  conflict_decision: { supersedes: [1], duplicate_of: null, reason: "same subject, new value" },
  summary: { summary: "Moved to Hangzhou; drinks oolong." },
  extracted_facts: {
    facts: [{ content: "I drink oolong tea", category: "preference", memory_type: "semantic", priority: 2 }],
  },
};

/** A deterministic vector per text: its length and char codes, spread over `dims`. */
function vectorOf(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0.01);
  for (let i = 0; i < text.length; i++) v[(i * 7 + text.charCodeAt(i)) % dims] += 1;
  return v;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

export class FakeOpenAiServer {
  mode: FakeMode = "ok";
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;

  constructor(readonly dims: number) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.requests.push({ path: req.url ?? "", authorization: req.headers.authorization, body });
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
