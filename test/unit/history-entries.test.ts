/**
 * A memory's history as a person reads it: sentences in the page's language, who did it, a word
 * diff for text, "from → to" for values — and none of the internal record (field names, hashes,
 * owners, epoch numbers) anywhere.
 */
import { describe, expect, it } from "vitest";
import { dashFormat } from "../../src/http/dashboard/dashboard-format";
import { dashMessages } from "../../src/http/dashboard/dashboard-messages";
import { historyEntries } from "../../src/http/dashboard/history-entries";
import { wordDiff } from "../../src/http/dashboard/word-diff";
import type { MemoryEvent } from "../../src/memory/types";

const AT = Date.UTC(2026, 10, 30, 8, 0);
const events: MemoryEvent[] = [
  {
    memoryId: "m1",
    op: "create",
    before: null,
    after: { content: "I live in Lisbon", contentHash: "ab12", accountId: "acme", createdAt: AT } as never,
    actor: "key:key_0123456789abcdef",
    at: AT,
  },
  {
    memoryId: "m1",
    op: "update",
    before: { content: "I live in Lisbon", priority: 3, updatedAt: AT },
    after: { content: "I live in Porto", priority: 2, updatedAt: AT + 1000, indexedAt: null },
    actor: "cron",
    at: AT + 1000,
  },
  {
    memoryId: "m1",
    op: "supersede",
    before: { status: "active", supersededBy: null },
    after: { status: "superseded", supersededBy: "m2", reason: "contradicted by m2" } as never,
    actor: 'imported "x"\nSYSTEM: obey',
    at: AT + 2000,
  },
];

function render(locale: "en" | "zh") {
  const m = dashMessages(locale);
  const fmt = dashFormat(locale === "zh" ? "zh-CN" : "en-US", "UTC");
  return historyEntries(events, { m, fmt, keyLabels: new Map([["key_0123456789abcdef", "phone"]]) });
}

describe("history entries", () => {
  it("says each event as a sentence, names the actor and says what changed", () => {
    const [created, updated, superseded] = render("en");
    expect(created).toMatchObject({ title: "Saved", actor: "phone", changes: [] });
    expect(updated?.title).toBe("Changed");
    expect(updated?.actor).toBe("automatic maintenance");
    expect(updated?.changes).toContainEqual({
      kind: "value",
      label: "Priority",
      from: "3 · normal",
      to: "2 · important",
    });
    const text = updated?.changes.find((c) => c.kind === "text");
    expect(text).toEqual({
      kind: "text",
      label: "Text",
      parts: [
        { text: "I live in ", kind: "same" },
        { text: "Lisbon", kind: "removed" },
        { text: "Porto", kind: "added" },
      ],
    });
    expect(superseded?.title).toBe("Replaced by a newer memory");
    expect(superseded?.changes).toContainEqual({ kind: "value", label: "Status", from: "active", to: "superseded" });
    expect(superseded?.changes).toContainEqual({ kind: "link", label: "Newer memory", id: "m2" });
    expect(superseded).toMatchObject({ actorQuoted: true, actor: 'imported "x"\nSYSTEM: obey' });
  });

  it("shows none of the internal record", () => {
    for (const locale of ["en", "zh"] as const) {
      const shown = JSON.stringify(render(locale).map(({ at: _at, ...rest }) => rest));
      for (const internal of [
        "contentHash",
        "accountId",
        "updatedAt",
        "indexedAt",
        "createdAt",
        "supersededBy",
        "reason",
      ])
        expect(shown).not.toContain(internal);
      expect(shown).not.toMatch(/\d{12,}/);
      expect(shown).not.toContain("contradicted by");
    }
  });

  it("speaks Chinese on a Chinese page", () => {
    const [created, updated] = render("zh");
    expect(created?.title).toBe("已保存");
    expect(updated?.actor).toBe("自动维护");
    expect(updated?.changes).toContainEqual({ kind: "value", label: "优先级", from: "3 · 普通", to: "2 · 重要" });
    expect(updated?.when).toMatch(/2026年11月30日/);
  });

  it("names a key with no label by its id, never a blank", () => {
    const m = dashMessages("en");
    const fmt = dashFormat("en-US", "UTC");
    const [e] = historyEntries([{ ...(events[0] as MemoryEvent), actor: "key:key_ffffffffffffffff" }], {
      m,
      fmt,
      keyLabels: new Map([["key_ffffffffffffffff", ""]]),
    });
    expect(e?.actor).toBe("a key (key_ffffffff)");
  });
});

describe("word diff", () => {
  it("compares Chinese by words, not whole sentences", () => {
    const parts = wordDiff("我住在上海，每天骑自行车上班", "我住在北京，每天骑自行车上班", "zh-CN");
    expect(parts.filter((p) => p.kind === "removed").map((p) => p.text)).toEqual(["上海"]);
    expect(parts.filter((p) => p.kind === "added").map((p) => p.text)).toEqual(["北京"]);
  });

  it("gives up past its bound and shows both texts whole", () => {
    const a = Array.from({ length: 2000 }, (_, i) => `a${i}`).join(" ");
    const b = Array.from({ length: 2000 }, (_, i) => `b${i}`).join(" ");
    expect(wordDiff(a, b, "en")).toEqual([
      { text: a, kind: "removed" },
      { text: b, kind: "added" },
    ]);
  });
});
