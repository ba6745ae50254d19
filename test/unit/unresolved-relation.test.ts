/**
 * A relation word no alias resolved asks about someone never told of: only memories naming that
 * relation (the word or one naming the same relation) are about them.
 */
import { describe, expect, it } from "vitest";
import { namesRelations, unresolvedRelations } from "../../src/memory/recall/unresolved-relation";

describe("unresolved relation words", () => {
  it("lists each unresolved relation with the words naming the same relation", () => {
    const [mum] = unresolvedRelations("What does my mum do?", new Set(), []);
    expect(mum).toEqual(expect.arrayContaining(["mum", "mom", "mother"]));
    expect(unresolvedRelations("我奶奶叫什么名字？", new Set(), [])).toEqual([expect.arrayContaining(["奶奶"])]);
    expect(unresolvedRelations("what does my best friend do?", new Set(["best friend"]), [])).toEqual([]);
    expect(unresolvedRelations("Where does Caroline live?", new Set(), [])).toEqual([]);
  });

  it("an in-law is told of by the spouse's words for them too, so the words decide", () => {
    expect(
      unresolvedRelations("我婆婆爱吃哪种月饼？", new Set(), [{ content: "老公：妈说中秋想来上海住一周。" }]),
    ).toEqual([]);
    expect(unresolvedRelations("What does my mother-in-law like?", new Set(), [])).toEqual([]);
  });

  it("a relation some memory recall read names was told of, and is not enforced", () => {
    expect(unresolvedRelations("我母亲吃的降压药叫什么？", new Set(), [{ content: "我妈最近血压有点高" }])).toEqual([]);
    expect(unresolvedRelations("What does my uncle do?", new Set(), [{ content: "Anna flies planes" }])).toHaveLength(
      1,
    );
    expect(unresolvedRelations("我爸爸对我有什么期望？", new Set(), [])[0]).toContain("爸");
  });

  it("a memory names the relation by any of its words, as a whole word", () => {
    const uncle = unresolvedRelations("What does my uncle do for a living?", new Set(), []);
    expect(namesRelations("Anna flies cargo planes for a living.", uncle)).toBe(false);
    expect(namesRelations("My uncle Bob repairs boats", uncle)).toBe(true);
    const mum = unresolvedRelations("What does my mum do?", new Set(), []);
    expect(namesRelations("My mother teaches piano", mum)).toBe(true);
    expect(namesRelations("I have a mummy costume", mum)).toBe(false);
    const grandma = unresolvedRelations("我奶奶叫什么名字？", new Set(), []);
    expect(namesRelations("我奶奶住在乡下", grandma)).toBe(true);
    expect(namesRelations("我喜欢吃火锅", grandma)).toBe(false);
  });
});
