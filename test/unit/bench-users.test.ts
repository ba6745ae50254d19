import { describe, expect, it } from "vitest";
import { BenchUserError, benchUserId, benchUserIds, ownEvidence } from "../../scripts/lib/bench-users";
import { isPrincipalId } from "../../src/memory/ids";

describe("benchmark sample ids → user ids", () => {
  it("keeps Chinese names readable and distinct (they used to collapse into bench-___)", () => {
    const names = ["王芳", "李明", "张伟", "刘洋", "陈静", "王芳芳"];
    const users = benchUserIds(names);
    expect(users.get("王芳")).toBe("bench-王芳");
    expect(new Set(users.values()).size).toBe(names.length);
    for (const u of users.values()) expect(isPrincipalId(u), u).toBe(true);
  });

  it("is injective where characters must be escaped, _ included", () => {
    const ids = ["a b", "a_b", "a_20_b", "a/b", "a b ", "conv-26", "conv_26"];
    const users = [...benchUserIds(ids).values()];
    expect(new Set(users).size).toBe(ids.length);
    expect(benchUserId("a b")).toBe("bench-a_20_b");
    expect(benchUserId("a_b")).toBe("bench-a_5f_b");
  });

  it("escapes what the server's NFC would rewrite, so canonically equal ids stay apart", () => {
    const composed = benchUserId("Zoë");
    const decomposed = benchUserId("Zoe\u0308");
    expect(composed).not.toBe(decomposed);
    expect(decomposed.normalize("NFC")).toBe(decomposed);
    const jamo = benchUserId("\u1100\u1161"); // NFC would compose these into 가
    expect(jamo.normalize("NFC")).toBe(jamo);
    expect(jamo).not.toBe(benchUserId("가"));
  });

  it("fails loudly on a repeated sample id or one too long to map", () => {
    expect(() => benchUserIds(["王芳", "李明", "王芳"])).toThrow(BenchUserError);
    expect(() => benchUserIds(["王芳", "李明", "王芳"])).toThrow(/would share user "bench-王芳"/);
    expect(() => benchUserId("x".repeat(200))).toThrow(/longer than 128/);
  });
});

describe("benchmark ownership check", () => {
  const own = new Map([
    ["01A", "D1:1"],
    ["01B", "D1:2"],
  ]);

  it("maps the user's own memories to their evidence ids", () => {
    expect(ownEvidence("bench-王芳", ["01B", "01A"], own)).toEqual(["D1:2", "D1:1"]);
    expect(ownEvidence("bench-王芳", [], own)).toEqual([]);
  });

  it("stops the run on a memory the user does not own", () => {
    expect(() => ownEvidence("bench-王芳", ["01A", "01Z"], own)).toThrow(BenchUserError);
    expect(() => ownEvidence("bench-王芳", ["01Z"], own)).toThrow(/does not own \(01Z\): memory crossed owners/);
  });
});
