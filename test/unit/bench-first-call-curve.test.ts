import { describe, expect, it } from "vitest";
import {
  answerClauseExcerpt,
  FIRST_CALL_TOKEN_TARGET,
  firstCallCurve,
  type RankedQuestion,
  type ReplayRule,
  replayFirstCall,
} from "../../scripts/lib/bench-first-call-curve";
import { estimateTokens } from "../../scripts/lib/bench-tokens";
import type { MemoryView } from "../../src/mcp/views";

const LONG =
  "Caroline: That charity race sounds great, Mel! I hope it went well for you and the team. " +
  "It raised a lot of money for mental health, which matters so much to me these days.";

function view(id: string, content: string, score: number): MemoryView {
  return {
    id,
    content,
    category: "general",
    tags: [],
    priority: 3,
    memory_type: "episodic",
    status: "active",
    agent_id: null,
    source: null,
    created_at: "2023-05-08T13:56:00.000Z",
    updated_at: "2023-05-08T13:56:00.000Z",
    event_time: "2023-05-08T13:56:00.000Z",
    expires_at: null,
    superseded_by: null,
    score,
  };
}

function question(ranked: MemoryView[], evidence: string[], answer?: string): RankedQuestion {
  return {
    question: "What did the charity race raise awareness for?",
    ...(answer !== undefined ? { answer } : {}),
    evidence,
    ranked,
    external: ranked.map((m) => `D1:${m.id}`),
    totalRelevant: ranked.length + 3,
  };
}

const whole: ReplayRule = { label: "whole", budget: 200, showing: { kind: "whole" } };
const excerpt: ReplayRule = { label: "excerpt", budget: 60, showing: { kind: "excerpt", tokens: 12 } };
const oracle: ReplayRule = { label: "oracle", budget: 60, showing: { kind: "answer-clause", tokens: 16 } };

describe("the oracle's excerpt: the clause that holds the answer", () => {
  const fallback = () => "FALLBACK";

  it("leaves a memory that fits whole", () => {
    expect(answerClauseExcerpt("Caroline: I ran for mental health.", "mental health", 16, fallback)).toBe(
      "Caroline: I ran for mental health.",
    );
  });

  it("shows the shortest clause holding the answer, with the speaker and the cuts marked", () => {
    const shown = answerClauseExcerpt(LONG, "mental health", 16, fallback);
    expect(shown).toBe("Caroline: …It raised a lot of money for mental health,…");
    expect(estimateTokens(shown)).toBeLessThanOrEqual(16);
  });

  it("falls back when no clause holds the answer, the answer is unknown, or the clause is too long", () => {
    expect(answerClauseExcerpt(LONG, "marathon", 16, fallback)).toBe("FALLBACK");
    expect(answerClauseExcerpt(LONG, undefined, 16, fallback)).toBe("FALLBACK");
    expect(answerClauseExcerpt(LONG, "mental health", 8, fallback)).toBe("FALLBACK");
  });
});

describe("stage 1 replayed over a ranked search", () => {
  const ranked = [view("a", LONG, 0.7), view("b", "Melanie: We ran it last Saturday.", 0.6), view("c", "x", 0.3)];

  it("shows the strong matches whole and scores evidence by external id and the answer in the text", () => {
    const call = replayFirstCall(question(ranked, ["D1:a", "D1:c"], "mental health"), whole);
    expect(call.memories).toBe(2); // c is below 0.8 of the best score
    expect(call.share).toBe(0.5);
    expect(call.holdsAnswer).toBe(true);
    expect(call.tokens).toBeGreaterThan(estimateTokens(LONG));
  });

  it("cuts the answer out with the product's query excerpt, keeps it with the oracle's", () => {
    const q = question(ranked, ["D1:a"], "mental health");
    const cut = replayFirstCall(q, excerpt);
    const kept = replayFirstCall(q, oracle);
    expect(cut.share).toBe(1);
    expect(cut.holdsAnswer).toBe(false);
    expect(kept.share).toBe(1);
    expect(kept.holdsAnswer).toBe(true);
    expect(cut.tokens).toBeLessThan(replayFirstCall(q, whole).tokens);
  });

  it("has no answer figure for a question without an answer", () => {
    expect(replayFirstCall(question(ranked, ["D1:a"]), whole).holdsAnswer).toBeNull();
  });
});

describe("the curve and its target", () => {
  it("takes the evidence target from the search's own Recall@5 and marks the rules that meet both", () => {
    const hit = question([view("a", "Caroline: mental health.", 0.9)], ["D1:a"], "mental health");
    const miss = question([view("b", "Melanie: we ran.", 0.9)], ["D1:z"], "mental health");
    const curve = firstCallCurve([hit, miss], [whole]);
    expect(curve.recall5).toBe(0.5);
    expect(curve.evidenceTarget).toBeCloseTo(0.45);
    expect(curve.tokenTarget).toBe(FIRST_CALL_TOKEN_TARGET);
    expect(curve.points[0]).toMatchObject({ label: "whole", hitRate: 0.5, memoriesMean: 1, answerRate: 0.5 });
    expect(curve.points[0].meetsTarget).toBe(curve.points[0].tokensMean <= FIRST_CALL_TOKEN_TARGET);
    expect(curve.points[0].meetsTarget).toBe(true);
    const long = question([view("c", LONG.repeat(3), 0.9)], ["D1:c"], "mental health");
    expect(firstCallCurve([long], [whole]).points[0].meetsTarget).toBe(false);
  });
});
