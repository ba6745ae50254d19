import { describe, expect, it } from "vitest";
import {
  ID_MAX_CHARS,
  isPrincipalId,
  normalizePrincipalId,
  principalIdForHeader,
  principalIdFromHeader,
  principalIdSchema,
} from "../../src/memory/ids";

const valid = (raw: string) => isPrincipalId(normalizePrincipalId(raw));

describe("principal ids in any script", () => {
  it("accepts letters and digits of any script and _ . @ : -", () => {
    for (const id of ["繁星的id", "alice", "bot_7.v2@acme:eu-1", "Zoë", "محمد", "हिन्दी", "ユーザー", "사용자", "٣٤"])
      expect(valid(id), id).toBe(true);
  });

  it("refuses control, separator and other characters, empty and over-long ids", () => {
    const bad = [
      "",
      "a b",
      "a\u3000b",
      "a\u00a0b",
      "a\u2028b",
      "a\tb",
      "a\u0000b",
      "a\u200bb",
      "a/b",
      "a%b",
      "😀",
      "a\u202eb",
    ];
    for (const id of bad) expect(valid(id), JSON.stringify(id)).toBe(false);
    expect(valid("字".repeat(ID_MAX_CHARS))).toBe(true);
    expect(valid("字".repeat(ID_MAX_CHARS + 1))).toBe(false);
    expect(valid("𠀀".repeat(ID_MAX_CHARS))).toBe(true); // astral characters count once
  });

  it("normalises to NFC, so decomposed and composed spellings are one id", () => {
    const composed = "Zoë";
    const decomposed = "Zoe\u0308";
    expect(normalizePrincipalId(decomposed)).toBe(composed);
    expect(principalIdSchema.parse(decomposed)).toBe(composed);
    expect(principalIdSchema.safeParse("a b").error?.issues[0].message).toMatch(/letters or digits \(any script\)/);
  });

  it("travels in a header percent-encoded as UTF-8, and plain ASCII ids stay as they are", () => {
    expect(principalIdForHeader("繁星的id")).toBe("%E7%B9%81%E6%98%9F%E7%9A%84id");
    expect(principalIdFromHeader("%E7%B9%81%E6%98%9F%E7%9A%84id")).toBe("繁星的id");
    expect(principalIdFromHeader("planner")).toBe("planner");
    expect(principalIdFromHeader(principalIdForHeader("bot@acme:eu"))).toBe("bot@acme:eu");
    expect(principalIdFromHeader("%E7%B9")).toBeNull();
    expect(principalIdFromHeader("Zoe%CC%88")).toBe("Zoë");
  });
});
