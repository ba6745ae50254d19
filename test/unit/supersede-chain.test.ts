/**
 * Which recall questions ask about the past (recall/supersede-chain.ts): those answer from the
 * replaced facts; every other question answers through what replaced them.
 */
import { describe, expect, it } from "vitest";
import { localeMessages } from "../../src/mcp/messages";
import { candidateView, renderBrief, renderLine, structuredView } from "../../src/mcp/views";
import { analyzeQuery } from "../../src/memory/recall/query-analysis";
import { asksAboutPast } from "../../src/memory/recall/supersede-chain";
import type { Memory } from "../../src/memory/types";

const NOW = Date.UTC(2026, 11, 4);
const past = (q: string) => asksAboutPast(analyzeQuery(q, NOW), NOW);

describe("asksAboutPast", () => {
  it.each([
    "where did I live before?",
    "Where did I use to work? I used to work somewhere else",
    "Where did I use to live?",
    "what was my previous job? previously",
    "where did I live in 2024?",
    "what car did I drive last year?",
    "我以前住在哪",
    "我之前在哪工作",
    "我原来的手机号是多少",
    "Where was I living before the move?",
    "Which city did I leave when I relocated?",
    "Where did I move from?",
    "我上一份工作是在哪家公司？",
    "What was my last job?",
    "换工作之前我在哪里上班？",
  ])("%s asks about the past", (q) => expect(past(q)).toBe(true));

  it.each([
    "where do I live?",
    "where do I work?",
    "What do I use to cook rice?",
    "what do I drink every morning?",
    "how old am I?",
    "我住在哪",
    "我现在在哪工作",
    "what am I doing next year?",
    "What do I do before breakfast?",
    "What's my routine before bed?",
    "我睡觉之前一般做什么",
  ])("%s asks about now", (q) => expect(past(q)).toBe(false));
});

describe("how a result that replaced an older fact reads", () => {
  const replacedAt = Date.UTC(2026, 10, 3, 9);
  const memory = {
    ...baseMemory(),
    content: "我搬到杭州了",
  };
  it("says updated and what it was, in English and Chinese, on every kind of line", () => {
    const view = candidateView({
      memory,
      score: 1,
      update: { replacedId: "old", replacedContent: "我住在北京", replacedAt },
    });
    expect(view.update).toEqual({
      replaced_id: "old",
      replaced_at: "2026-11-03T09:00:00.000Z",
      replaced_content: "我住在北京",
    });
    expect(structuredView(view).update).toEqual({ replaced_id: "old", replaced_at: "2026-11-03T09:00:00.000Z" });
    expect(renderLine(view, localeMessages("en"))).toMatch(/\(updated 3 Nov; was: "我住在北京"\)$/);
    expect(renderBrief(view, view.content, localeMessages("zh"))).toBe(
      '- 2026-11-20: "我搬到杭州了" (11月3日更新；原为："我住在北京")',
    );
  });

  it("a replaced fact shown for a question about the past says until when it held", () => {
    const view = candidateView({ memory: { ...memory, status: "superseded", updatedAt: replacedAt }, score: 1 });
    expect(renderBrief(view, view.content, localeMessages("en"))).toBe('- 2026-11-20: "我搬到杭州了" (until 3 Nov)');
    expect(renderBrief(view, view.content, localeMessages("zh"))).toBe('- 2026-11-20: "我搬到杭州了" (至11月3日)');
  });
});

function baseMemory(): Memory {
  const at = Date.UTC(2026, 10, 20);
  return {
    id: "new",
    accountId: "a",
    namespace: "user",
    userId: "u",
    agentId: null,
    content: "",
    summary: null,
    category: "personal",
    tags: [],
    priority: 3,
    confidence: 1,
    importance: 0.5,
    memoryType: "semantic",
    source: null,
    externalId: null,
    derivedFrom: [],
    status: "active",
    supersededBy: null,
    contentHash: "h",
    createdAt: at,
    updatedAt: at,
    eventTime: null,
    expiresAt: null,
    deletedAt: null,
    lastAccessedAt: null,
    accessCount: 0,
    embeddingModel: null,
    indexedAt: null,
    decayedAt: null,
    consolidatedAt: null,
    entitiesAt: null,
  };
}
