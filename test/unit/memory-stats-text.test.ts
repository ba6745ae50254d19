import { describe, expect, it } from "vitest";
import { localeMessages } from "../../src/mcp/messages";
import { statsText, toStatsView } from "../../src/mcp/tools/memory-stats";
import type { MemoryStats } from "../../src/memory/manage/browse-memories";
import { dailyUsageView } from "../../src/platform-limits/daily-usage";
import { DEFAULT_PLATFORM_LIMITS } from "../../src/platform-limits/platform-limits";

const stats = (kind: string) => ({
  ...({
    total: 4_900,
    byStatus: { active: 4_900 },
    byCategory: {},
    byPriority: {},
    byType: {},
    oldest: 0,
    newest: 0,
    activeIndexed: 4_900,
    activeUnindexed: 0,
    activeOtherModel: 0,
    embeddingModel: "@cf/baai/bge-m3",
    vectorIndex: kind,
    freshBuffered: 0,
    indexResidentBytes: null,
    inSync: true,
    recall: { lexicalOnly: 0, lastLexicalOnlyAt: null },
  } as MemoryStats),
  daily: dailyUsageView(null, DEFAULT_PLATFORM_LIMITS, 0),
});

describe("memory_stats' headroom sentence", () => {
  it("says how many of the capped local index's vectors the user holds, in English and Chinese", () => {
    const view = toStatsView(stats("local"));
    expect(statsText(view, undefined, localeMessages("en"), 20_000)).toContain(
      "Local index: 4900 of 20000 vectors; past 20000, new memories are found by keyword only",
    );
    expect(statsText(view, undefined, localeMessages("zh"), 20_000)).toContain("本地索引：4900 / 20000 个向量");
  });
  it("says nothing of it without a cap or with Vectorize", () => {
    expect(statsText(toStatsView(stats("local")), undefined, localeMessages("en"), 0)).not.toContain("Local index");
    expect(statsText(toStatsView(stats("vectorize")), undefined, localeMessages("en"), 20_000)).not.toContain(
      "Local index",
    );
  });
});
