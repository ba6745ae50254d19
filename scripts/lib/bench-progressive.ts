/**
 * @module scripts/lib/bench-progressive
 * The first call of a session, as an agent meets it: every question is asked once through
 * recall_memory without `limit` and with a session id never used before, so the server answers with
 * stage 1 of progressive injection. Scores what the agent receives (the share of the question's
 * evidence among the returned memories) and what it costs: estimated tokens of the text rendering
 * (the content blocks, what clients put in the model's context) and of the whole result as received
 * (content and structuredContent as JSON, for clients that give the model both). Also whether that
 * text holds the question's answer (bench-answers.ts): a memory counted as received may be shown as
 * an excerpt.
 */
import { answerRate } from "./bench-answers.ts";
import type { BenchQuestion } from "./bench-data.ts";
import type { Server } from "./bench-run.ts";
import { estimateTokens } from "./bench-tokens.ts";
import { ownEvidence } from "./bench-users.ts";

/** Share of `evidence` among `received` (external ids): 1 when all of it came back. */
export function evidenceShare(received: string[], evidence: string[]): number {
  if (evidence.length === 0) return 0;
  const got = new Set(received);
  return evidence.filter((e) => got.has(e)).length / evidence.length;
}

export interface FirstCall {
  ids: string[];
  text: string;
  /** Estimated tokens of the result as received: content and structuredContent, as JSON. */
  wireTokens: number;
  stage: number;
  ms: number;
}

/** One recall_memory call as the first of a fresh session: no limit, a new session id. */
export async function firstCall(s: Server, userId: string, query: string, sessionId: string): Promise<FirstCall> {
  const started = performance.now();
  const r = (await s.client.callTool({
    name: "recall_memory",
    arguments: { query, user_id: userId, session_id: sessionId },
  })) as {
    isError?: boolean;
    structuredContent?: { stage?: number; memories?: { id: string }[] };
    content?: { text?: string }[];
  };
  const ms = performance.now() - started;
  const text = (r.content ?? []).map((c) => c.text ?? "").join("\n");
  if (r.isError) throw new Error(`recall_memory failed for ${userId}: ${text}`);
  return {
    ids: (r.structuredContent?.memories ?? []).map((m) => m.id),
    text,
    wireTokens: estimateTokens(JSON.stringify({ content: r.content, structuredContent: r.structuredContent })),
    stage: r.structuredContent?.stage ?? 0,
    ms,
  };
}

export interface ProgressiveRow {
  /** Share of the question's evidence in what the first call returned. */
  share: number;
  /** The text the agent received, and the question's answer when the file gives one. */
  text: string;
  answer?: string;
  tokens: number;
  wireTokens: number;
  memories: number;
  stage: number;
}

let sessions = 0;

/** Asks every question of one user as the first call of its own session. */
export async function runFirstCalls(
  s: Server,
  userId: string,
  questions: BenchQuestion[],
  externalOf: Map<string, string>,
): Promise<ProgressiveRow[]> {
  const rows: ProgressiveRow[] = [];
  for (const q of questions) {
    const r = await firstCall(s, userId, q.question, `bench-first-call-${process.pid}-${++sessions}`);
    rows.push({
      share: evidenceShare(ownEvidence(userId, r.ids, externalOf), q.evidence),
      text: r.text,
      ...(q.answer !== undefined ? { answer: q.answer } : {}),
      tokens: estimateTokens(r.text),
      wireTokens: r.wireTokens,
      memories: r.ids.length,
      stage: r.stage,
    });
  }
  return rows;
}

export interface ProgressiveSummary {
  queries: number;
  /** Mean share of each question's evidence received (Recall over what the first call returns). */
  hitRate: number;
  /** Questions with all of their evidence received, and with any of it. */
  allRate: number;
  anyRate: number;
  tokensMean: number;
  /** Mean estimated tokens of the whole result (content + structuredContent as JSON). */
  wireTokensMean: number;
  memoriesMean: number;
  /** Calls the server did not answer as stage 1 (should be 0: every session is fresh). */
  notStage1: number;
  /** Share of the questions with an answer whose answer the text holds; null when the file has no answers. */
  answerRate: number | null;
  answered: number;
}

export function summarizeProgressive(rows: ProgressiveRow[]): ProgressiveSummary {
  const n = rows.length;
  const mean = (pick: (r: ProgressiveRow) => number) => (n === 0 ? 0 : rows.reduce((a, r) => a + pick(r), 0) / n);
  return {
    queries: n,
    hitRate: mean((r) => r.share),
    allRate: mean((r) => (r.share === 1 ? 1 : 0)),
    anyRate: mean((r) => (r.share > 0 ? 1 : 0)),
    tokensMean: mean((r) => r.tokens),
    wireTokensMean: mean((r) => r.wireTokens),
    memoriesMean: mean((r) => r.memories),
    notStage1: rows.filter((r) => r.stage !== 1).length,
    answerRate: answerRate(rows),
    answered: rows.filter((r) => r.answer !== undefined).length,
  };
}
