/**
 * @module scripts/lib/stress-hostile-upstream
 * The hostile upstream of the reliability run (`npm run stress -- --hostile`, docs/reliability.md):
 * an OpenAI-compatible server on loopback that the server under test uses as its embedder and its
 * Llm (EMBEDDING_PROVIDER / LLM_PROVIDER=openai-compatible, set on every start and restart), so it
 * sits beside the embedding outage (the DEV_FAULTS window wraps this embedder). Its answers come
 * from test/helpers/hostile-upstream.ts. While the random phase runs, every request draws a mode:
 * chat answers carry secrets in the facts and an instruction in every summary and conflict reason,
 * or a 400 MB / never-ending body, or a 307 to another origin; embeddings are non-finite, huge,
 * wrong-size, a 400 MB or never-ending body or a redirect, half the time, until the embedding
 * outage is over (repair must catch up after it). The trust checks and the fuzz see chat refused
 * (HTTP 500: the rules answer, as they expect). Then `hostilePhase` drives one store through every
 * mode in turn and checks: each write answered as stored, each recall/search/fetch answered (0
 * recall failures) with no model text unscreened, no call past the tool-call deadline by more than
 * 2 s, a 400 MB answer never read past the cap, nothing sent to the other origin.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AWS_KEY,
  HOSTILE_MODES,
  type HostileMode,
  hostileAnswer,
  newRecord,
  UNSCREENED,
} from "../../test/helpers/hostile-upstream.ts";
import { CALL_TIMEOUT_MS, openClient, type ToolAnswer } from "./stress-client.ts";
import type { WireChecks } from "./stress-invariants.ts";
import type { StressDevice } from "./stress-owners.ts";
import type { Rng } from "./stress-prng.ts";

/** The server's tool-call deadline (src/providers/gate/call-deadline.ts TOOL_CALL_DEADLINE_MS). */
export const TOOL_CALL_DEADLINE_MS = 25_000;
/** The embedding size the server is told (EMBEDDING_DIMENSIONS). */
export const HOSTILE_DIMS = 384;
/** The cap on an embeddings answer (src/providers/openai-compatible/openai-compatible-http.ts UPSTREAM_MAX_BYTES). */
const CAP_BYTES = 8 * 1024 * 1024;
/** What loopback socket buffers may hold beyond what the client read. */
const SOCKET_SLACK = 16 * 1024 * 1024;

type Policy = "random" | "rules" | { force: HostileMode };

export class HostileUpstream {
  readonly record = newRecord();
  /** Requests to the other origin a redirect points to (a second listener): must stay 0. */
  elsewhereRequests = 0;
  policy: Policy = "random";
  /** Epoch ms after which embeddings are answered well (the end of the embedding outage). */
  embeddingsCleanAt = Number.POSITIVE_INFINITY;
  private server: Server | null = null;
  private elsewhere: Server | null = null;
  private readonly byMode = new Map<string, number>();

  private readonly rng: Rng;

  constructor(rng: Rng) {
    this.rng = rng;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
  }

  /** The wrangler vars that point the server's embedder and Llm here. */
  vars(): Record<string, string> {
    return {
      EMBEDDING_PROVIDER: "openai-compatible",
      EMBEDDING_BASE_URL: this.baseUrl,
      EMBEDDING_MODEL: "hostile-embed",
      EMBEDDING_DIMENSIONS: String(HOSTILE_DIMS),
      LLM_PROVIDER: "openai-compatible",
      LLM_BASE_URL: this.baseUrl,
      LLM_MODEL: "hostile-chat",
    };
  }

  /** Requests answered per mode, for the report. */
  modes(): Record<string, number> {
    return Object.fromEntries(this.byMode);
  }

  async start(): Promise<this> {
    this.elsewhere = createServer((req, res) => {
      this.elsewhereRequests++;
      req.resume();
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => this.elsewhere!.listen(0, "127.0.0.1", resolve));
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        } catch {
          // answered below as a well-formed request would be
        }
        void this.answer(req.url ?? "", body, res);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const s of [this.server, this.elsewhere]) {
      s?.closeAllConnections();
      await new Promise<void>((resolve) => s?.close(() => resolve()) ?? resolve());
    }
  }

  private modeFor(path: string): HostileMode | "refuse" {
    const embeddings = path.endsWith("/embeddings");
    if (typeof this.policy === "object") return this.policy.force;
    if (this.policy === "rules") return embeddings ? "ok" : "refuse";
    if (embeddings) {
      if (Date.now() >= this.embeddingsCleanAt || this.rng.next() < 0.5) return "ok";
      return this.rng.pick(["non-finite", "huge-vector", "wrong-dims", "huge-body", "slow-body", "redirect"]);
    }
    // Chat: mostly the injection answers (the gate's work), sometimes a body or a redirect attack.
    return this.rng.next() < 0.7 ? "injection-lite" : this.rng.pick(["huge-body", "slow-body", "redirect"]);
  }

  private async answer(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const mode = this.modeFor(path);
    this.byMode.set(mode, (this.byMode.get(mode) ?? 0) + 1);
    if (mode === "refuse") return void res.writeHead(500, { "content-type": "application/json" }).end("{}");
    const elsewhere = `http://127.0.0.1:${(this.elsewhere!.address() as AddressInfo).port}/v1`;
    const answer = await hostileAnswer(mode, path, body, HOSTILE_DIMS, this.record, elsewhere);
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      headers[k] = v;
    });
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
}

export interface HostileReport {
  modes: string[];
  writes: number;
  failedWrites: number;
  recalls: number;
  /** Recalls, searches and fetches that came back as an error or with a score that is not a finite number. */
  recallFailures: number;
  /** Model texts seen unscreened: a secret anywhere, an instruction in anything but a quarantined fact. */
  unscreened: string[];
  /** The slowest call, and calls past the deadline by more than 2 s. */
  slowestMs: number;
  overDeadline: number;
  /** The most bytes of one answer the server let the client pull; requests that reached the other origin. */
  maxBodyMb: number;
  crossOrigin: number;
  ok: boolean;
}

async function timed<T>(report: HostileReport, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    const ms = Date.now() - started;
    report.slowestMs = Math.max(report.slowestMs, ms);
    if (ms > TOOL_CALL_DEADLINE_MS + 2_000) report.overDeadline++;
  }
}

function secretsIn(text: string): boolean {
  return text.includes(AWS_KEY) || /hunter2/.test(text);
}

/** Every hostile mode in turn on one store: writes, recall, search and fetch; the gate's invariants counted. */
export async function hostilePhase(
  base: string,
  device: StressDevice,
  wire: WireChecks,
  upstream: HostileUpstream,
): Promise<HostileReport> {
  const { client } = await openClient(base, device, "mcp", wire);
  const report: HostileReport = {
    modes: [...HOSTILE_MODES],
    writes: 0,
    failedWrites: 0,
    recalls: 0,
    recallFailures: 0,
    unscreened: [],
    slowestMs: 0,
    overDeadline: 0,
    maxBodyMb: 0,
    crossOrigin: 0,
    ok: false,
  };
  const tool = (name: string, args: Record<string, unknown>) =>
    timed(
      report,
      async () => (await client.callTool({ name, arguments: args }, { timeout: CALL_TIMEOUT_MS })) as ToolAnswer,
    );
  const marker = device.owners[0].marker;
  try {
    for (const mode of HOSTILE_MODES) {
      upstream.policy = { force: mode };
      const word = `hx${mode.replace(/-/g, "")}`;
      const writes = [
        await tool("save_memory", { content: `${marker} I keep ${word} bees on the roof of my flat in Porto` }),
        await tool("save_memory", {
          content: `${marker} My ${word} garden plan: ${"tomatoes, basil and a row of sunflowers by the fence; ".repeat(10)}`,
        }),
        await tool("summarize_conversation", {
          transcript: `User: ${marker} I moved my ${word} beehives to the allotment by the river.\nAssistant: Noted.`,
        }),
      ];
      for (const w of writes) {
        report.writes++;
        if (w.isError) report.failedWrites++;
        const text = JSON.stringify(w.structuredContent ?? {});
        if (secretsIn(text)) report.unscreened.push(`${mode}: a secret in a write answer`);
        const outcomes = (w.structuredContent as { outcomes?: { content: string; status: string }[] } | undefined)
          ?.outcomes;
        for (const o of outcomes ?? [])
          if (UNSCREENED[0].test(o.content) && o.status !== "quarantined")
            report.unscreened.push(`${mode}: an instruction stored as ${o.status}`);
        const reason = (w.structuredContent as { reason?: string } | undefined)?.reason ?? "";
        if (UNSCREENED[0].test(reason)) report.unscreened.push(`${mode}: a model's reason shown`);
      }
      for (const query of [`${word} bees Porto`, `${word} garden sunflowers`, `${word} beehives river`]) {
        report.recalls++;
        const r = await tool("recall_memory", { query, limit: 10 });
        const memories = (r.structuredContent as { memories?: { score?: unknown }[] } | undefined)?.memories;
        if (r.isError || !memories || memories.some((m) => m.score !== undefined && !Number.isFinite(m.score)))
          report.recallFailures++;
        const s = await tool("search", { query });
        if (s.isError) report.recallFailures++;
        const results = (s.structuredContent as { results?: { id: string }[] } | undefined)?.results ?? [];
        const shown = [JSON.stringify(r.structuredContent ?? {}), JSON.stringify(s.structuredContent ?? {})];
        for (const hit of results.slice(0, 3)) {
          const f = await tool("fetch", { id: hit.id });
          if (f.isError) report.recallFailures++;
          shown.push(JSON.stringify(f.structuredContent ?? {}));
        }
        for (const text of shown)
          if (secretsIn(text) || UNSCREENED[0].test(text))
            report.unscreened.push(`${mode}: model text shown by recall, search or fetch`);
      }
    }
  } finally {
    upstream.policy = "rules";
    await client.close().catch(() => undefined);
  }
  report.maxBodyMb = upstream.record.maxBodyPulled / (1024 * 1024);
  report.crossOrigin = upstream.elsewhereRequests;
  report.ok =
    report.failedWrites === 0 &&
    report.recallFailures === 0 &&
    report.unscreened.length === 0 &&
    report.overDeadline === 0 &&
    upstream.record.maxBodyPulled <= CAP_BYTES + SOCKET_SLACK &&
    report.crossOrigin === 0;
  return report;
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
