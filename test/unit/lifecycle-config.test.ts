import { describe, expect, it } from "vitest";
import { buildEmbedder } from "../../src/composition";
import { embeddingModelKey, lifecyclePolicy, loadConfig } from "../../src/config";
import type { Env } from "../../src/env";
import { boundedMap } from "../../src/jobs/bounded-map";
import { describeRule } from "../../src/memory/lifecycle/expire-memories";

const load = (vars: Record<string, string>) => loadConfig({ ...vars });

describe("lifecycle config", () => {
  it("parses RETENTION_RULES with zod into the policy, with the documented defaults", () => {
    const config = load({
      RETENTION_RULES: '[{"memory_type":"episodic","days":90,"keep_priority_at_most":1},{"category":"chat","days":7}]',
    });
    expect(lifecyclePolicy(config)).toEqual({
      retentionDays: 30,
      halfLifeDays: 30,
      batchSize: 100,
      retentionRules: [
        { category: undefined, memoryType: "episodic", days: 90, keepPriorityAtMost: 1 },
        { category: "chat", memoryType: undefined, days: 7, keepPriorityAtMost: undefined },
      ],
    });
    expect(lifecyclePolicy(load({})).retentionRules).toEqual([]);
    expect(load({}).LIFECYCLE_RUN_BUDGET_MS).toBe(20_000);
    expect(describeRule(lifecyclePolicy(config).retentionRules[1])).toBe(
      "retention rule: memories in chat live 7 days",
    );
  });

  it("rejects bad rules with the field and the rule", () => {
    expect(() => load({ RETENTION_RULES: "[{" })).toThrow(
      "Invalid config RETENTION_RULES: must be a JSON array of retention rules",
    );
    expect(() => load({ RETENTION_RULES: '[{"days":30}]' })).toThrow(
      /RETENTION_RULES\.0: each rule needs category or memory_type/,
    );
    expect(() => load({ RETENTION_RULES: '[{"category":"x","days":-1}]' })).toThrow(/RETENTION_RULES\.0\.days/);
    expect(() => load({ RETENTION_RULES: '[{"category":"x","days":1,"keep_priority_at_most":9}]' })).toThrow(
      /keep_priority_at_most/,
    );
    expect(() => load({ RETENTION_RULES: '[{"category":"x","days":1,"ttl":3}]' })).toThrow(/RETENTION_RULES\.0/);
    expect(() => load({ LIFECYCLE_BATCH_SIZE: "500" })).toThrow(/LIFECYCLE_BATCH_SIZE/);
  });

  it("keys embeddings by model, plus dimensions when EMBEDDING_DIMENSIONS is set, so either change re-embeds", () => {
    expect(embeddingModelKey(load({ EMBEDDING_MODEL: "@cf/baai/bge-m3" }))).toBe("@cf/baai/bge-m3");
    expect(embeddingModelKey(load({ EMBEDDING_MODEL: "local-hash-v1", EMBEDDING_DIMENSIONS: "256" }))).toBe(
      "local-hash-v1@256",
    );
    const embedder = buildEmbedder({} as Env, load({ EMBEDDING_PROVIDER: "local", EMBEDDING_DIMENSIONS: "256" }));
    expect([embedder.model, embedder.dimensions]).toEqual(["local-hash-v1@256", 256]);
  });
});

describe("bounded fan-out", () => {
  it("never has more than `concurrency` calls in flight and keeps order", async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await boundedMap([5, 1, 4, 2, 3, 0, 6], 3, async (x) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, x));
      inFlight--;
      return x * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
    expect(await boundedMap([], 4, async (x: number) => x)).toEqual([]);
  });
});
