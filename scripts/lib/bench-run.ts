/**
 * @module scripts/lib/bench-run
 * The benchmark's traffic against a running server, all through the product's public surface:
 * samples go in through POST /v1/import (one user each), questions go out through the MCP tool
 * recall_memory over /mcp with an MCP SDK client, exactly as an agent calls it.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { BenchMemory, BenchQuestion, BenchSample } from "./bench-data.ts";
import { type QueryScores, scoreQuery } from "./bench-metrics.ts";
import type { ReachQuestion } from "./bench-reach.ts";
import { estimateTokens } from "./bench-tokens.ts";
import { benchUserId, ownEvidence } from "./bench-users.ts";
import { chunkLines, postImport, type SourceLine } from "./import-client.ts";
import { type ServerTiming, timingFetch } from "./server-timing.ts";

export interface Server {
  base: string;
  key: string;
  client: Client;
  /** Server-Timing of the client's last call. */
  lastTiming: () => ServerTiming | null;
}

export async function connect(base: string, key: string): Promise<Server> {
  const client = new Client({ name: "hippocampus-bench", version: "1.0.0" });
  const timed = timingFetch();
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: timed.fetch,
    }),
  );
  return { base, key, client, lastTiming: timed.last };
}

function importLine(m: BenchMemory): string {
  return JSON.stringify({
    content: m.content,
    source: m.source,
    external_id: m.externalId,
    ...(m.eventTime ? { event_time: m.eventTime } : {}),
  });
}

/** Imports memories for one user; returns memory id → external id and the wall time. */
export async function importMemories(
  s: Server,
  userId: string,
  memories: BenchMemory[],
  onChunk?: (done: number) => void,
): Promise<{ ms: number; externalOf: Map<string, string> }> {
  const lines: SourceLine[] = memories.map((m, i) => ({ fileLine: i + 1, text: importLine(m), source: m.source }));
  const externalOf = new Map<string, string>();
  const started = performance.now();
  let done = 0;
  for (const chunk of chunkLines(lines)) {
    const r = await postImport(s.base, s.key, chunk, { user: userId });
    if (!r.ok) throw new Error(`import for ${userId} failed: ${r.message}${r.lines[0] ? ` (${r.lines[0].text})` : ""}`);
    for (const item of r.body.items) {
      // A fresh server holds nothing: a skipped line is an external_id this user was given twice.
      if (item.status === "skipped")
        throw new Error(`import for ${userId}: external_id ${JSON.stringify(item.external_id)} appears twice`);
      if (item.external_id) externalOf.set(item.id, item.external_id);
    }
    done += chunk.length;
    onChunk?.(done);
  }
  return { ms: performance.now() - started, externalOf };
}

/** One recall_memory call with limit 10; the ranked memory ids (and each one's event_time), the text rendering, the round-trip time and the server's timing. */
export async function recall(
  s: Server,
  userId: string,
  query: string,
): Promise<{
  ids: string[];
  memories: { id: string; event_time: string | null }[];
  text: string;
  ms: number;
  server: ServerTiming | null;
}> {
  const started = performance.now();
  const r = (await s.client.callTool({ name: "recall_memory", arguments: { query, limit: 10, user_id: userId } })) as {
    isError?: boolean;
    structuredContent?: { memories?: { id: string; event_time?: string | null }[] };
    content?: { text?: string }[];
  };
  const ms = performance.now() - started;
  const text = (r.content ?? []).map((c) => c.text ?? "").join("\n");
  if (r.isError) throw new Error(`recall_memory failed for ${userId}: ${text}`);
  const memories = (r.structuredContent?.memories ?? []).map((m) => ({ id: m.id, event_time: m.event_time ?? null }));
  return { ids: memories.map((m) => m.id), memories, text, ms, server: s.lastTiming() };
}

export interface QuestionRun {
  scored: { category: string; scores: QueryScores }[];
  latencies: number[];
  /** Server-Timing of each call (null where the header was missing). */
  server: (ServerTiming | null)[];
  /** Estimated tokens of the text an agent receives for the first 5 results of the full search (header + 5 lines). */
  tokens5: number[];
  /** That text with each question's answer (bench-answers.ts measures whether it holds it). */
  top5: { text: string; answer?: string }[];
  /** First call per user: the Durable Object and its index load cold. */
  coldMs: number;
  /** Each question with what recall returned (external ids), for the word-reach bound (bench-reach.ts). */
  reach: ReachQuestion[];
}

/** Runs every question of a sample; one extra first call warms the user's Durable Object. */
export async function runQuestions(
  s: Server,
  userId: string,
  questions: BenchQuestion[],
  externalOf: Map<string, string>,
): Promise<QuestionRun> {
  const cold = await recall(s, userId, "warm-up");
  const run: QuestionRun = { scored: [], latencies: [], server: [], tokens5: [], top5: [], coldMs: cold.ms, reach: [] };
  for (const q of questions) {
    const r = await recall(s, userId, q.question);
    run.latencies.push(r.ms);
    run.server.push(r.server);
    const top5 = r.text.split("\n").slice(0, 6).join("\n");
    run.tokens5.push(estimateTokens(top5));
    run.top5.push({ text: top5, ...(q.answer !== undefined ? { answer: q.answer } : {}) });
    const ranked = ownEvidence(userId, r.ids, externalOf);
    run.scored.push({ category: q.category, scores: scoreQuery(ranked, q.evidence) });
    run.reach.push({ question: q.question, category: q.category, evidence: q.evidence, ranked });
  }
  return run;
}

export interface CrossUserCheck {
  queries: number;
  /** Share of foreign questions that returned anything. */
  anyResultRate: number;
  /** Memories returned per foreign question (limit 10). */
  meanResults: number;
  /** Memories returned in all, every one checked to be the asked user's own (ownEvidence). */
  checked: number;
}

/**
 * The false-positive side: questions about another sample asked of each user. A good floor
 * answers most of them with nothing or little; whatever comes back must be the asked user's own
 * memories (the question's owner's never). Every `every`-th foreign question is asked.
 */
export async function crossUserCheck(
  s: Server,
  samples: BenchSample[],
  externalOf: Map<string, Map<string, string>>,
  every = 6,
): Promise<CrossUserCheck> {
  let queries = 0,
    withAny = 0,
    returned = 0;
  for (const sample of samples) {
    const foreign = samples.filter((o) => o !== sample).flatMap((o) => o.questions);
    for (let i = 0; i < foreign.length; i += every) {
      const r = await recall(s, benchUserId(sample.id), foreign[i].question);
      ownEvidence(benchUserId(sample.id), r.ids, externalOf.get(sample.id)!);
      queries++;
      returned += r.ids.length;
      if (r.ids.length > 0) withAny++;
    }
  }
  return {
    queries,
    anyResultRate: queries ? withAny / queries : 0,
    meanResults: queries ? returned / queries : 0,
    checked: returned,
  };
}

/** memory_stats' index block for one user (resident bytes of the local index among it). */
export async function indexStats(
  s: Server,
  userId: string,
): Promise<{ resident_bytes: number | null; indexed: number }> {
  const r = (await s.client.callTool({ name: "memory_stats", arguments: { user_id: userId } })) as {
    structuredContent?: { index?: { resident_bytes?: number | null; indexed?: number } };
  };
  return {
    resident_bytes: r.structuredContent?.index?.resident_bytes ?? null,
    indexed: r.structuredContent?.index?.indexed ?? 0,
  };
}
