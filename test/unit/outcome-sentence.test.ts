import { describe, expect, it } from "vitest";
import { localeMessages, outcomeSentence } from "../../src/mcp/messages";
import { WRITE_OUTCOMES } from "../../src/memory/contracts";

describe("the sentence for what a write did", () => {
  const en = localeMessages("en");
  const zh = localeMessages("zh");
  const outcome = (status: (typeof WRITE_OUTCOMES)[number], reason: string | null = null) => ({
    status,
    supersededIds: ["a", "b"],
    reason,
  });

  it("says each outcome in both locales, the rejection with its reason", () => {
    expect(outcomeSentence(en, outcome("created"))).toBe(en.saved);
    expect(outcomeSentence(en, outcome("merged"))).toBe(en.merged);
    expect(outcomeSentence(en, outcome("superseded"))).toBe(en.superseded(2));
    expect(outcomeSentence(en, outcome("quarantined"))).toBe(en.quarantined);
    expect(outcomeSentence(en, outcome("rejected", "empty content"))).toBe("Not saved: empty content.");
    expect(outcomeSentence(zh, outcome("superseded"))).toBe(zh.superseded(2));
  });

  it("never calls a stored memory rejected: every outcome but rejected says it was kept", () => {
    for (const status of WRITE_OUTCOMES)
      expect(outcomeSentence(en, outcome(status)).startsWith("Not saved")).toBe(status === "rejected");
  });
});
