/**
 * One behaviour suite for every Llm adapter (memory/ports.ts): what the write path relies on from
 * the rules and from any model — a conflict decision that names only candidates it was shown, a
 * summary within its budget, facts with a category, a type and a priority in range — in English and
 * Chinese. Runners: test/unit/llm-conformance.test.ts (rules; Workers AI over a fake binding that
 * answers honestly and one that answers out of bounds) and test/node/llm-conformance.test.ts
 * (OpenAI-compatible against a loopback server).
 */
import { describe, expect, it } from "vitest";
import type { ConflictCandidate, Llm } from "../../src/memory/ports";

const CANDIDATES: ConflictCandidate[] = [
  { handle: 1, content: "I live in Lisbon", category: "personal" },
  { handle: 2, content: "My favourite colour is blue", category: "preference" },
];
const LONG_EN = "I have worked at a design studio in Lisbon for five years, mostly on packaging. ".repeat(12);
const LONG_ZH = "我在上海的一家设计公司工作了五年，负责品牌视觉和包装设计。".repeat(12);
const TRANSCRIPT = [
  { role: "user", content: "I drink oolong every morning. 我下个月搬到杭州。" },
  { role: "assistant", content: "Noted." },
  { role: "user", content: "My sister Anna lives in Berlin." },
];

export function describeLlm(name: string, make: () => Llm | Promise<Llm>): void {
  describe(`Llm conformance: ${name}`, () => {
    it("decides a conflict naming only the candidates it was shown", async () => {
      const llm = await make();
      const decision = await llm.decideConflict("I moved to Munich last month", CANDIDATES);
      const shown = new Set(CANDIDATES.map((c) => c.handle));
      for (const h of decision.supersedes) expect(shown.has(h)).toBe(true);
      if (decision.duplicateOf !== null) expect(shown.has(decision.duplicateOf)).toBe(true);
      for (const r of decision.remainders ?? []) expect(decision.supersedes).toContain(r.handle);
      expect(typeof decision.reason).toBe("string");
    });

    it("decides nothing against no candidates", async () => {
      const llm = await make();
      const decision = await llm.decideConflict("我搬到杭州了", []);
      expect(decision.supersedes).toEqual([]);
      expect(decision.duplicateOf).toBeNull();
    });

    it("summarises within the budget it is given, in English and Chinese", async () => {
      const llm = await make();
      for (const [text, max] of [
        [LONG_EN, 120],
        [LONG_ZH, 60],
      ] as const) {
        const summary = await llm.summarize(text, max);
        expect(summary.trim().length).toBeGreaterThan(0);
        expect(summary.length).toBeLessThanOrEqual(max);
      }
    });

    it("extracts facts with content, a category, a memory type and a priority in range", async () => {
      const llm = await make();
      const facts = await llm.extractFacts(TRANSCRIPT, { date: "2026-11-03" });
      expect(facts.length).toBeGreaterThan(0);
      for (const f of facts) {
        expect(f.content.trim().length).toBeGreaterThan(0);
        expect(f.category.length).toBeGreaterThan(0);
        expect(["semantic", "episodic"]).toContain(f.memoryType);
        expect(Number.isInteger(f.priority) && f.priority >= 1 && f.priority <= 5).toBe(true);
        if (f.turn !== undefined) expect(f.turn >= 0 && f.turn < TRANSCRIPT.length).toBe(true);
        if (f.eventTime !== undefined) expect(f.eventTime).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    });

    it("extracts nothing from nothing", async () => {
      const llm = await make();
      expect(await llm.extractFacts([])).toEqual([]);
    });
  });
}
