/**
 * @module test/unit/favourite-kind
 * A question for a favourite of one kind is not answered by a favourite of another kind, in English
 * and Chinese; a favourite of the same kind, one with no kind, or one in the other language still is.
 */
import { describe, expect, it } from "vitest";
import { askedFavourite, namesOtherFavourite } from "../../src/memory/recall/favourite-kind";

describe("askedFavourite", () => {
  it.each([
    ["What's my favourite restaurant?", "restaurant"],
    ["What's my favorite kind of music?", "music"],
    ["我最喜欢哪家餐厅？", "餐厅"],
    ["我最喜欢的季节是什么？", "季节"],
    ["What is my favourite?", null],
    ["Where do I live?", null],
  ])("%s → %s", (q, kind) => expect(askedFavourite(q)).toBe(kind));
});

describe("namesOtherFavourite", () => {
  it("a favourite of another kind is not about the question", () => {
    expect(namesOtherFavourite("Winter is my favourite season.", "restaurant")).toBe(true);
    expect(namesOtherFavourite("我最喜欢的季节是冬天", "餐厅")).toBe(true);
  });

  it("the same kind, no kind, or the other language still answers", () => {
    expect(namesOtherFavourite("My favourite restaurant is Nopa.", "restaurant")).toBe(false);
    expect(namesOtherFavourite("My favourite restaurants are Nopa and Zuni.", "restaurant")).toBe(false);
    expect(namesOtherFavourite("Nopa is my favourite.", "restaurant")).toBe(false);
    expect(namesOtherFavourite("我最喜欢的餐厅是海底捞", "餐厅")).toBe(false);
    expect(namesOtherFavourite("My favourite restaurant is Nopa.", "餐厅")).toBe(false);
    expect(namesOtherFavourite("I love hiking", "restaurant")).toBe(false);
    // A question naming both kinds asks about both.
    expect(
      namesOtherFavourite("Grace's favourite biscuit is a ginger snap", "tea", "Grace favourite tea biscuit"),
    ).toBe(false);
  });
});
