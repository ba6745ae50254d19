/**
 * Every word of the dashboard exists in both languages: the same keys in English and Chinese, and
 * no Chinese string left in English (a Chinese value must hold a Han character unless it is a name
 * that stays as it is). Also the formats: the reader's locale within the page's language, time
 * zones, and ISO weeks that turn on Mondays.
 */
import { describe, expect, it } from "vitest";
import { dashFormat, readerLocale, validTimeZone } from "../../src/http/dashboard/dashboard-format";
import { dashMessages } from "../../src/http/dashboard/dashboard-messages";
import { MEMORY_STATUSES, MEMORY_TYPES } from "../../src/memory/contracts";
import { EN_RELATIONS, ZH_RELATIONS } from "../../src/memory/entities/relation-words";
import { weekOf, weekStart } from "../../src/memory/manage/calendar-weeks";
import { EVENT_OPS } from "../../src/memory/types";

type Tree = { [k: string]: unknown };
/** Names that are the same in both languages. */
const SAME_IN_BOTH = new Set(["favicon", "switchTo"]);
/**
 * Words that translate what the product itself names and keep a person's own as written: probed with a
 * built-in value (a category, a relation the entity rules give) instead of an id.
 */
const PROBES: Record<string, string> = { categoryName: "personal", "entities.predicate": "sister_of" };

function leaves(tree: Tree, path = ""): [string, unknown][] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v !== null && typeof v === "object" ? leaves(v as Tree, `${path}${k}.`) : [[`${path}${k}`, v] as [string, unknown]],
  );
}

const HAN = /\p{Script=Han}/u;

describe("dashboard words in both languages", () => {
  const en = leaves(dashMessages("en") as unknown as Tree);
  const zh = leaves(dashMessages("zh") as unknown as Tree);

  it("has the same keys in English and Chinese", () => {
    expect(zh.map(([k]) => k).sort()).toEqual(en.map(([k]) => k).sort());
  });

  it("leaves no Chinese string in English", () => {
    const untranslated = zh.flatMap(([k, v]) => {
      if (SAME_IN_BOTH.has(k.split(".").pop() as string) || k === "htmlLang") return [];
      const text = typeof v === "function" ? String(v(PROBES[k] ?? "key_0123456789abcdef")) : String(v);
      return HAN.test(text) ? [] : [`${k}: ${text}`];
    });
    expect(untranslated).toEqual([]);
  });

  it("names every event, status, priority and kind a memory can have", () => {
    for (const locale of ["en", "zh"] as const) {
      const m = dashMessages(locale);
      for (const op of EVENT_OPS) expect(m.history.ops[op], `${locale} ${op}`).toBeTruthy();
      for (const s of MEMORY_STATUSES) expect(m.status[s], `${locale} ${s}`).toBeTruthy();
      for (const t of MEMORY_TYPES) expect(m.types[t], `${locale} ${t}`).toBeTruthy();
      for (const p of ["1", "2", "3", "4", "5"]) expect(m.priorities[p], `${locale} ${p}`).toBeTruthy();
    }
  });
});

describe("the reader's formats", () => {
  it("takes the browser's own variant of the page's language, else the language's default", () => {
    expect(readerLocale("en-GB,en;q=0.9", "en")).toBe("en-GB");
    expect(readerLocale("zh-TW,zh;q=0.9,en;q=0.5", "en")).toBe("en");
    expect(readerLocale("zh-TW,zh;q=0.9", "en")).toBe("en-US");
    expect(readerLocale("zh-TW,zh;q=0.9", "zh")).toBe("zh-TW");
    expect(readerLocale("fr-FR,de;q=0.5", "zh")).toBe("zh-CN");
    expect(readerLocale(undefined, "en")).toBe("en-US");
    expect(readerLocale(`${"x".repeat(5000)},en-AU`, "en")).toBe("en-AU");
    expect(readerLocale("en-<script>", "en")).toBe("en-US");
  });

  it("writes month-first or day-first as the locale does, and always names the zone", () => {
    const ms = Date.UTC(2026, 11, 1, 14, 5);
    expect(dashFormat("en-US", "UTC").when(ms)).toMatch(/^Dec 1, 2026.*2:05\sPM UTC$/);
    expect(dashFormat("en-GB", "UTC").when(ms)).toMatch(/^1 Dec 2026.*14:05 UTC$/);
    expect(dashFormat("zh-CN", "Asia/Shanghai").when(ms)).toMatch(/2026年12月1日.*22:05/);
    expect(dashFormat("en-US", "UTC").when(null)).toBe("—");
    expect(dashFormat("en-US", "UTC").number(12345)).toBe("12,345");
  });

  it("accepts only time zones Intl knows", () => {
    expect(validTimeZone("Europe/Lisbon")).toBe("Europe/Lisbon");
    expect(validTimeZone("UTC")).toBe("UTC");
    expect(validTimeZone("Mars/Olympus")).toBeNull();
    expect(validTimeZone("")).toBeNull();
    expect(validTimeZone(undefined)).toBeNull();
  });
});

describe("calendar weeks", () => {
  it("start on Monday 00:00 UTC and hold the instants of that week", () => {
    const tuesday = Date.UTC(2026, 11, 1, 9); // 2026-12-01 was a Tuesday
    const start = weekStart(weekOf(tuesday));
    expect(new Date(start).toISOString()).toBe("2026-11-30T00:00:00.000Z");
    expect(new Date(start).getUTCDay()).toBe(1);
    expect(weekOf(start)).toBe(weekOf(tuesday));
    expect(weekOf(start - 1)).toBe(weekOf(tuesday) - 1);
    expect(weekOf(start + 7 * 86_400_000 - 1)).toBe(weekOf(tuesday));
  });
});

describe("relations in Chinese", () => {
  it("every relation the entity rules give reads in Chinese, not as its English words", () => {
    const zh = dashMessages("zh");
    const predicates = new Set([...EN_RELATIONS.values(), ...ZH_RELATIONS.values()].map((r) => r.predicate));
    for (const p of predicates) expect(zh.entities.predicate(p), p).toMatch(/\p{Script=Han}/u);
  });
});
