/**
 * @module scripts/lib/bench-first-call-curve
 * Stage 1 (a session's first recall) replayed under other rules, to see what its token target costs.
 * Every question is searched once with limit REPLAY_LIMIT; each rule then shapes that ranked answer
 * with the product's own functions (progressive-injection's shapeStage, session-recall's excerpts,
 * views' renderRecall) and scores the text as bench-progressive.ts scores the real first call:
 * evidence received, estimated tokens, memories, and whether the text holds the answer. One rule is
 * an oracle: it shows the clause that holds the file's answer, which no server can know — the
 * ceiling of any excerpt of that size. The replay has no profile (core memories): it fits files
 * whose memories are all ordinary, as LoCoMo's are. Scores come over the wire rounded to 3
 * decimals, so a match on the edge of the strong-match cut may go the other way than on the server.
 */
import { z } from "zod";
import { localeMessages } from "../../src/mcp/messages.ts";
import { type MemoryView, memoryView, renderRecall } from "../../src/mcp/views.ts";
import { FIRST_CALL_TOKENS, shapeStage, shownText } from "../../src/memory/recall/progressive-injection.ts";
import { ELLIPSIS, splitClauses } from "../../src/memory/text/excerpt.ts";
import { splitSpeaker } from "../../src/memory/text/speaker.ts";
import { holdsAnswer } from "./bench-answers.ts";
import type { BenchQuestion } from "./bench-data.ts";
import { evidenceShare } from "./bench-progressive.ts";
import type { Server } from "./bench-run.ts";
import { estimateTokens } from "./bench-tokens.ts";
import { ownEvidence } from "./bench-users.ts";

/** How deep each question is searched: stage 1 shows at most its first few. */
export const REPLAY_LIMIT = 20;
/** The first call's token target for stage 1: 1.5 × the 48 tokens it sent on LoCoMo before matches were added. */
export const FIRST_CALL_TOKEN_TARGET = 72;
/** The first call's evidence target: this share of the full search's Recall@5. */
export const FIRST_CALL_EVIDENCE_SHARE = 0.9;

const searchAnswer = z.object({
  memories: z.array(memoryView).describe("The ranked search, best first"),
  more_available: z.number().int().min(0).describe("Relevant memories past the limit"),
});

export interface RankedQuestion {
  question: string;
  answer?: string;
  evidence: string[];
  ranked: MemoryView[];
  /** External id of each ranked memory (the file's id: what evidence names). */
  external: string[];
  totalRelevant: number;
}

/** Searches every question of one user once, deep enough for any stage-1 rule to pick from. */
export async function rankForReplay(
  s: Server,
  userId: string,
  questions: BenchQuestion[],
  externalOf: Map<string, string>,
): Promise<RankedQuestion[]> {
  const out: RankedQuestion[] = [];
  for (const q of questions) {
    const r = await s.client.callTool({
      name: "recall_memory",
      arguments: { query: q.question, limit: REPLAY_LIMIT, user_id: userId },
    });
    if (r.isError) throw new Error(`recall_memory failed for ${userId} during the replay's search`);
    const found = searchAnswer.parse(r.structuredContent);
    out.push({
      question: q.question,
      ...(q.answer !== undefined ? { answer: q.answer } : {}),
      evidence: q.evidence,
      ranked: found.memories,
      external: ownEvidence(
        userId,
        found.memories.map((m) => m.id),
        externalOf,
      ),
      totalRelevant: found.memories.length + found.more_available,
    });
  }
  return out;
}

/** How a rule shows each memory: whole, the product's query excerpt, or the answer's clause (oracle). */
export type Showing =
  | { kind: "whole" }
  | { kind: "excerpt"; tokens: number }
  | { kind: "answer-clause"; tokens: number };

export interface ReplayRule {
  label: string;
  /** Stage 1's budget for the memories' text (PROGRESSIVE_FIRST_CALL_TOKENS). */
  budget: number;
  showing: Showing;
}

const whole: Showing = { kind: "whole" };
const excerpt = (tokens: number): Showing => ({ kind: "excerpt", tokens });
const answerClause = (tokens: number): Showing => ({ kind: "answer-clause", tokens });

/** Excerpt sizes and the stage-1 budget each runs with (three or four memories' worth). */
const EXCERPT_SIZES: [tokens: number, budget: number][] = [
  [12, 40],
  [16, 48],
  [24, 60],
  [32, 80],
];

/** The rules the curve runs: budgets of whole memories, the product's excerpts, and the oracle's. */
export const CURVE_RULES: ReplayRule[] = [
  { label: `whole memories, budget ${FIRST_CALL_TOKENS} (the default)`, budget: FIRST_CALL_TOKENS, showing: whole },
  { label: "whole memories, no budget", budget: 4_000, showing: whole },
  { label: "whole memories, budget 120", budget: 120, showing: whole },
  { label: "whole memories, budget 40 (best match)", budget: 40, showing: whole },
  ...EXCERPT_SIZES.flatMap(([tokens, budget]) => [
    { label: `excerpts ≤ ${tokens} tokens, budget ${budget}`, budget, showing: excerpt(tokens) },
    { label: `oracle: answer's clause ≤ ${tokens}, budget ${budget}`, budget, showing: answerClause(tokens) },
  ]),
];

/**
 * `content` shown as the shortest of its clauses that holds `answer` (speaker label kept, cuts
 * marked), when that fits `maxTokens`; else what `fallback` shows. Whole when it already fits.
 */
export function answerClauseExcerpt(
  content: string,
  answer: string | undefined,
  maxTokens: number,
  fallback: () => string,
): string {
  if (estimateTokens(content) <= maxTokens) return content;
  const turn = splitSpeaker(content);
  const label = turn ? content.slice(0, content.indexOf(turn.body)) : "";
  const clauses = splitClauses(turn ? turn.body : content).map((c) => c.trim());
  const shown = clauses
    .filter((c) => answer !== undefined && holdsAnswer(c, answer))
    .map((c) => `${label}${ELLIPSIS}${c}${ELLIPSIS}`)
    .filter((text) => estimateTokens(text) <= maxTokens)
    .sort((a, b) => estimateTokens(a) - estimateTokens(b));
  return shown[0] ?? fallback();
}

/** The text one memory is shown as under `showing`, for question `q`. */
function showFor(q: RankedQuestion, showing: Showing): ((item: { memory: MemoryView }) => string) | undefined {
  if (showing.kind === "whole") return undefined;
  const product = shownText(q.question, showing.tokens);
  if (!product || showing.kind === "excerpt") return product;
  return (item) => answerClauseExcerpt(item.memory.content, q.answer, showing.tokens, () => product(item));
}

export interface ReplayedCall {
  share: number;
  tokens: number;
  memories: number;
  holdsAnswer: boolean | null;
}

/** Stage 1 for `q` under `rule`, shaped and rendered as the server does, and scored. */
export function replayFirstCall(q: RankedQuestion, rule: ReplayRule): ReplayedCall {
  const items = q.ranked.map((memory) => ({ memory, score: memory.score ?? 0 }));
  const show = showFor(q, rule.showing);
  const shaped = shapeStage(1, items, q.totalRelevant, [], REPLAY_LIMIT, rule.budget, show);
  const views = shaped.results.map((r) => r.memory);
  const shown = show ? shaped.results.map(show) : undefined;
  const text = renderRecall(1, views, shown, shaped.matches, shaped.moreAvailable, localeMessages("en"));
  const externalOf = new Map(q.ranked.map((m, i) => [m.id, q.external[i]]));
  return {
    share: evidenceShare(
      views.map((v) => externalOf.get(v.id) ?? ""),
      q.evidence,
    ),
    tokens: estimateTokens(text),
    memories: views.length,
    holdsAnswer: q.answer === undefined ? null : holdsAnswer(text, q.answer),
  };
}

export interface CurvePoint {
  label: string;
  hitRate: number;
  tokensMean: number;
  memoriesMean: number;
  /** Share of the answered questions whose answer the text holds; null when the file gives none. */
  answerRate: number | null;
  meetsTarget: boolean;
}

export interface FirstCallCurve {
  queries: number;
  /** Recall@5 of the replay's own search, and the evidence stage 1 must hold (× FIRST_CALL_EVIDENCE_SHARE). */
  recall5: number;
  evidenceTarget: number;
  tokenTarget: number;
  points: CurvePoint[];
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Every rule over every question: the curve of evidence and answers against tokens. */
export function firstCallCurve(questions: RankedQuestion[], rules: ReplayRule[] = CURVE_RULES): FirstCallCurve {
  const recall5 = mean(questions.map((q) => evidenceShare(q.external.slice(0, 5), q.evidence)));
  const evidenceTarget = FIRST_CALL_EVIDENCE_SHARE * recall5;
  const points = rules.map((rule) => {
    const calls = questions.map((q) => replayFirstCall(q, rule));
    const answered = calls.filter((c) => c.holdsAnswer !== null);
    const hitRate = mean(calls.map((c) => c.share));
    const tokensMean = mean(calls.map((c) => c.tokens));
    return {
      label: rule.label,
      hitRate,
      tokensMean,
      memoriesMean: mean(calls.map((c) => c.memories)),
      answerRate: answered.length === 0 ? null : mean(answered.map((c) => (c.holdsAnswer ? 1 : 0))),
      meetsTarget: hitRate >= evidenceTarget && tokensMean <= FIRST_CALL_TOKEN_TARGET,
    };
  });
  return { queries: questions.length, recall5, evidenceTarget, tokenTarget: FIRST_CALL_TOKEN_TARGET, points };
}

const f3 = (x: number) => x.toFixed(3);

/** The curve as printed lines. */
export function curveLines(c: FirstCallCurve): string[] {
  const head = `  ${"rule".padEnd(44)}${"evidence".padStart(9)}${"tokens".padStart(8)}${"memories".padStart(9)}${"answer".padStart(8)}  target`;
  return [
    `First call replayed under other rules (${c.queries} questions; each searched once with limit ${REPLAY_LIMIT}, then shaped and rendered by the product's own functions; no profile):`,
    head,
    ...c.points.map(
      (p) =>
        `  ${p.label.padEnd(44)}${f3(p.hitRate).padStart(9)}${p.tokensMean.toFixed(1).padStart(8)}${p.memoriesMean.toFixed(2).padStart(9)}${(p.answerRate === null ? "n/a" : f3(p.answerRate)).padStart(8)}  ${p.meetsTarget ? "met" : "-"}`,
    ),
    `  target: evidence ≥ ${FIRST_CALL_EVIDENCE_SHARE} × R@5 ${f3(c.recall5)} = ${f3(c.evidenceTarget)} in ≤ ${c.tokenTarget} text tokens; "answer" = the text holds the file's answer; an oracle rule knows the answer, no server can`,
  ];
}

/** The curve for `--json`. */
export function curveJson(c: FirstCallCurve): Record<string, unknown> {
  return {
    queries: c.queries,
    recall5: c.recall5,
    evidence_target: c.evidenceTarget,
    token_target: c.tokenTarget,
    points: c.points.map((p) => ({
      rule: p.label,
      hit_rate: p.hitRate,
      tokens_mean: p.tokensMean,
      memories_mean: p.memoriesMean,
      answer_rate: p.answerRate,
      meets_target: p.meetsTarget,
    })),
  };
}
