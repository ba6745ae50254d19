/**
 * A user's daily usage (platform-limits/daily-usage.ts): the day's record, its roll-over at 00:00 UTC,
 * the view beside Workers Free's allowances, the Workers AI refusals told apart (workers-ai-usage.ts),
 * and memory_stats' sentences for them in English and Chinese.
 */
import { describe, expect, it } from "vitest";
import { localeMessages } from "../../src/mcp/messages";
import { dailyUsageText } from "../../src/mcp/tools/memory-stats";
import {
  addUsage,
  dailyUsageView,
  emptyAiTally,
  FREE_DAILY_ALLOWANCES,
  isEmptyDelta,
  nextUtcMidnight,
  usageToday,
} from "../../src/platform-limits/daily-usage";
import { InvocationBudget, runInvocation } from "../../src/platform-limits/invocation-budget";
import { DEFAULT_PLATFORM_LIMITS, FREE } from "../../src/platform-limits/platform-limits";
import { classifyAiFailure, countFailure, meteredAi } from "../../src/platform-limits/workers-ai-usage";

const FREE_LIMITS = { plan: "free" as const, ...FREE };
const DAY = Date.UTC(2026, 11, 5, 13, 30);
const delta = (read: number, written: number, ai = emptyAiTally()) => ({
  d1RowsRead: read,
  d1RowsWritten: written,
  ai,
});

describe("the day's record", () => {
  it("adds each call's rows to today's figures", () => {
    const one = addUsage(null, delta(270, 28), DAY);
    const two = addUsage(one, delta(406, 0), DAY + 60_000);
    expect(two).toMatchObject({ day: "2026-12-05", d1RowsRead: 676, d1RowsWritten: 28 });
  });

  it("starts afresh on the first call after 00:00 UTC, and reads as zero before it", () => {
    const yesterday = addUsage(null, delta(5_000, 100), DAY);
    const tomorrow = nextUtcMidnight(DAY);
    expect(new Date(tomorrow).toISOString()).toBe("2026-12-06T00:00:00.000Z");
    expect(usageToday(yesterday, tomorrow)).toMatchObject({ day: "2026-12-06", d1RowsRead: 0, d1RowsWritten: 0 });
    expect(addUsage(yesterday, delta(1, 2), tomorrow + 5)).toMatchObject({ d1RowsRead: 1, d1RowsWritten: 2 });
    expect(usageToday(yesterday, tomorrow - 1).d1RowsRead).toBe(5_000);
  });

  it("keeps the last limit's time unless a later call met one", () => {
    const limited = { ...emptyAiTally(), failures: 1, rateLimited: 1, lastLimitAt: DAY };
    const u = addUsage(addUsage(null, delta(0, 0, limited), DAY), delta(3, 0), DAY + 10);
    expect(u).toMatchObject({ rateLimited: 1, failures: 1, lastLimitAt: DAY });
  });

  it("a call that spent nothing is not worth a write", () => {
    expect(isEmptyDelta(delta(0, 0))).toBe(true);
    expect(isEmptyDelta(delta(0, 0, { ...emptyAiTally(), embeddings: 1 }))).toBe(false);
    expect(isEmptyDelta(delta(1, 0))).toBe(false);
  });
});

describe("the view beside the plan's allowances", () => {
  it("on Workers Free: each figure beside the account's daily allowance", () => {
    const view = dailyUsageView(addUsage(null, delta(50_000, 1_000), DAY), FREE_LIMITS, DAY);
    expect(view).toMatchObject({ day: "2026-12-05", used: { d1_rows_read: 50_000, d1_rows_written: 1_000 } });
    expect(view.free_allowances).toEqual({
      d1_rows_read: 5_000_000,
      d1_rows_written: 100_000,
      ai_neurons: FREE_DAILY_ALLOWANCES.workers_ai_neurons,
    });
  });

  it("on Paid: the figures without allowances", () => {
    const view = dailyUsageView(addUsage(null, delta(7, 1), DAY), DEFAULT_PLATFORM_LIMITS, DAY);
    expect(view).toMatchObject({ used: { d1_rows_read: 7, d1_rows_written: 1 }, free_allowances: {} });
  });
});

describe("Workers AI's refusals", () => {
  it("names the spent daily allocation by its documented words or either code", () => {
    const docs =
      "3036: You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.";
    expect(classifyAiFailure(new Error(docs))).toBe("daily_allocation");
    expect(classifyAiFailure(new Error("4006: you have used up your daily free allocation of 10,000 neurons"))).toBe(
      "daily_allocation",
    );
    expect(classifyAiFailure("AiError: 4006: account limited")).toBe("daily_allocation");
  });

  it("tells the rate limit from other failures", () => {
    expect(classifyAiFailure(new Error("429 Too Many Requests"))).toBe("rate_limited");
    expect(classifyAiFailure(new Error("Rate limit exceeded for this model"))).toBe("rate_limited");
    expect(classifyAiFailure(new Error("3040: No more data centers to forward the request to"))).toBe("failed");
    expect(classifyAiFailure(new Error("no answer within 10000 ms"))).toBe("failed");
    expect(classifyAiFailure(null)).toBe("failed");
  });

  it("counts a refusal with its time; a plain failure only as a failure", () => {
    const tally = emptyAiTally();
    countFailure(tally, new Error("daily free allocation"), DAY);
    countFailure(tally, new Error("timeout"), DAY + 5);
    expect(tally).toMatchObject({ failures: 2, dailyAllocation: 1, rateLimited: 0, lastLimitAt: DAY });
  });

  it("the metered binding counts each call by its model on the current invocation, failures with their cause", async () => {
    const fake = {
      async run(model: string): Promise<unknown> {
        if (model === "@cf/zai-org/glm-4.7-flash") throw new Error("3036: You have used up your daily free allocation");
        return { data: [[0]] };
      },
      gateway: "untouched",
    };
    const ai = meteredAi(fake, () => DAY);
    const budget = new InvocationBudget(FREE_LIMITS);
    await runInvocation(budget, async () => {
      await ai.run("@cf/baai/bge-m3");
      await ai.run("@cf/baai/bge-reranker-base");
      await expect(ai.run("@cf/zai-org/glm-4.7-flash")).rejects.toThrow("daily free allocation");
    });
    expect(budget.ai).toEqual({
      embeddings: 1,
      reranks: 1,
      generations: 1,
      failures: 1,
      rateLimited: 0,
      dailyAllocation: 1,
      lastLimitAt: DAY,
    });
    expect(ai.gateway).toBe("untouched");
    // Outside any invocation the call goes through uncounted.
    await expect(ai.run("@cf/baai/bge-m3")).resolves.toEqual({ data: [[0]] });
  });
});

describe("memory_stats' sentences for today's usage", () => {
  const allocation = { ...emptyAiTally(), embeddings: 3, failures: 2, dailyAllocation: 2, lastLimitAt: DAY };
  const view = dailyUsageView(addUsage(null, delta(12_345, 67, allocation), DAY), FREE_LIMITS, DAY);

  it("English: the rows beside Free's allowance, the calls, and the spent allocation with its reset", () => {
    const text = dailyUsageText(view, localeMessages("en")).join("\n");
    expect(text).toContain("this memory read 12,345 of Workers Free's 5,000,000 D1 rows a day and wrote 67 of 100,000");
    expect(text).toContain("the allowance is the whole account's");
    expect(text).toContain("Workers AI today: 3 embedding, 0 generation, 0 rerank calls");
    expect(text).toContain("Workers AI's daily free allocation (10,000 neurons for the account) was spent today");
    expect(text).toContain("until 2026-12-06T00:00:00Z saves are indexed later and recall answers from keywords");
    expect(text).not.toContain("rate limit");
  });

  it("Chinese: the same facts", () => {
    const text = dailyUsageText(view, localeMessages("zh")).join("\n");
    expect(text).toContain("读取 D1 12345 行（Workers Free 每天 5000000 行）");
    expect(text).toContain("每日免费额度");
  });

  it("a rate limit met today gets its own line; without an allowance only the figures", () => {
    const limited = { ...emptyAiTally(), embeddings: 1, failures: 1, rateLimited: 1, lastLimitAt: DAY };
    const paid = dailyUsageView(addUsage(null, delta(9, 1, limited), DAY), DEFAULT_PLATFORM_LIMITS, DAY);
    const text = dailyUsageText(paid, localeMessages("en")).join("\n");
    expect(text).toContain("Today (2026-12-05 UTC): 9 D1 rows read, 1 written by this memory");
    expect(text).toContain("Workers AI's rate limit was met today: 1 call refused, last at 2026-12-05T13:30:00.000Z");
    expect(text).not.toContain("Workers Free");
  });
});
