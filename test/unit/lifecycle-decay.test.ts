import { describe, expect, it } from "vitest";
import { DECAY_FLOOR, DECAY_STEP, decayedImportance, decayStepMs } from "../../src/memory/lifecycle/decay-importance";
import { dueQuery } from "../../src/memory/lifecycle/due-query";
import { DAY_MS } from "../../src/memory/lifecycle/lifecycle-types";
import { dueCriteria } from "../../src/storage/memories/d1-lifecycle-queries";

describe("importance decay", () => {
  it("halves importance once per half-life", () => {
    expect(decayedImportance(0.8, 30 * DAY_MS, 30)).toBeCloseTo(0.4, 4);
    expect(decayedImportance(0.8, 60 * DAY_MS, 30)).toBeCloseTo(0.2, 4);
    expect(decayedImportance(0.8, 7 * DAY_MS, 7)).toBeCloseTo(0.4, 4);
  });

  it("composes: two steps equal one step over the same total time (idempotent in time, not per run)", () => {
    const once = decayedImportance(0.9, 20 * DAY_MS, 30);
    const twice = decayedImportance(decayedImportance(0.9, 8 * DAY_MS, 30), 12 * DAY_MS, 30);
    expect(twice).toBeCloseTo(once, 3);
  });

  it("never goes below the floor and never rises", () => {
    expect(decayedImportance(0.9, 3650 * DAY_MS, 30)).toBe(DECAY_FLOOR);
    expect(decayedImportance(0.5, 0, 30)).toBe(0.5);
    expect(decayedImportance(0.5, -DAY_MS, 30)).toBe(0.5);
  });

  it("steps when importance would have lost another 10 %: about 4.6 days at a 30-day half-life", () => {
    expect(decayStepMs(30) / DAY_MS).toBeCloseTo(4.56, 2);
    expect(decayedImportance(1, decayStepMs(30), 30)).toBeCloseTo(DECAY_STEP, 4);
  });

  it("uses the same floor as the partial index the cron's decay query relies on", () => {
    const policy = { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 };
    const decay = dueCriteria(dueQuery(policy, 0, "m")).filter((c) => c.job === "decay");
    expect(decay).toHaveLength(2);
    for (const c of decay) expect(c.where).toContain(`importance > ${DECAY_FLOOR}`);
  });
});
