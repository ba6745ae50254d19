import { describe, expect, it } from "vitest";
import { cosine } from "../../src/memory/vector-math";
import { addsNothing, isNearDuplicate, NEAR_DUPLICATE, sameCues } from "../../src/memory/write/near-duplicate";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";

const embedder = new LocalHashEmbedder();

async function localVerdict(next: string, stored: string): Promise<{ near: boolean; cos: number }> {
  const [a, b] = await embedder.embed([next, stored]);
  const cos = cosine(a, b);
  return { near: isNearDuplicate(next, stored, cos, "local"), cos };
}

describe("near duplicates with the local hash embedder (measured pairs)", () => {
  it.each([
    ["I really love sushi", "I love sushi"],
    ["I love sushi so much", "I love sushi"],
    ["i LOVE sushi!!", "I love sushi"],
    ["我特别喜欢喝乌龙茶", "我喜欢喝乌龙茶"],
    ["繁星很喜欢哥特风的服装", "繁星喜欢哥特风服装"],
    ["Prefers TypeScript for new code", "Prefers TypeScript for all new code"],
  ])("%j restates %j", async (next, stored) => {
    const { near, cos } = await localVerdict(next, stored);
    expect(cos).toBeGreaterThanOrEqual(NEAR_DUPLICATE.cosine.local);
    expect(near).toBe(true);
  });

  // Each of these scores as high on cosine as a restatement (0.78–0.83) yet says something else.
  it.each([
    ["I don't like coffee", "I like coffee"],
    ["I like coffee", "I don't like coffee"],
    ["我不喜欢猫", "我喜欢猫"],
    ["I used to work at Google", "I work at Google"],
    ["I work at Google", "I used to work at Google"],
    ["I love sushi and ramen", "I love sushi"],
    ["My sister loves cats", "I love cats"],
    ["My favorite color is green", "My favorite color is blue"],
    ["I have three cats", "I have two cats"],
    ["Meeting with Bob on Friday", "Meeting with Bob on Monday"],
    ["我喜欢喝红茶", "我喜欢喝乌龙茶"],
    ["I had ramen for dinner", "I love sushi"],
  ])("%j is not a restatement of %j", async (next, stored) => {
    expect((await localVerdict(next, stored)).near).toBe(false);
  });
});

describe("paraphrases merge, different facts never do (canonical wording)", () => {
  it.each([
    ["繁星喜欢哥特风的衣服", "繁星喜欢哥特风服装"],
    ["I do not eat meat", "I don't eat meat"],
    ["My mother lives in Boston", "My mom lives in Boston"],
    ["我女儿7岁", "我女儿七岁"],
    ["我妹妹住广州", "我妹妹住在广州"],
    ["My favourite color is green", "My favorite colour is green"],
  ])("%j restates %j", async (next, stored) => {
    expect((await localVerdict(next, stored)).near).toBe(true);
  });

  it.each([
    ["My brother lives in Porto", "My sister lives in Porto"],
    ["I love cats", "My sister loves cats"],
    ["Sam gave Alex a book", "Alex gave Sam a book"],
    ["我弟弟住在广州", "我妹妹住在广州"],
    ["我有3个孩子", "我有两个孩子"],
    ["I do not eat meat anymore", "I don't eat meat"],
    ["我不再住在上海", "我住在上海"],
    ["The flight is on January 15", "The flight is on January 14"],
  ])("%j is not a restatement of %j", async (next, stored) => {
    expect((await localVerdict(next, stored)).near).toBe(false);
  });
});

describe("near-duplicate guards", () => {
  it("needs the same negation and tense cues", () => {
    expect(sameCues("I like tea", "I really like tea")).toBe(true);
    expect(sameCues("I don't like tea", "I do not like tea")).toBe(false);
    expect(sameCues("I don't like tea anymore", "I don't like tea")).toBe(false);
    expect(sameCues("我不再喝咖啡", "我喝咖啡")).toBe(false);
    expect(sameCues("我以前住在北京", "我住在北京")).toBe(false);
    expect(sameCues("我特别喜欢猫", "我喜欢猫")).toBe(true);
    expect(sameCues("别叫我小明", "叫我小明")).toBe(false);
  });

  it("needs the new text to add no content word (intensifiers aside)", () => {
    expect(addsNothing("I truly love sushi", "I love sushi")).toBe(true);
    expect(addsNothing("I love sushi", "I love sushi and ramen")).toBe(true);
    expect(addsNothing("I love sushi and ramen", "I love sushi")).toBe(false);
    expect(addsNothing("我非常喜欢猫", "我喜欢猫")).toBe(true);
    expect(addsNothing("我去超市", "我去市")).toBe(false);
    expect(addsNothing("!!!", "I love sushi")).toBe(false);
  });

  it("uses a stricter cosine bar for bge-m3 and the strictest for an unknown embedder", () => {
    const [next, stored] = ["I really love sushi", "I love sushi"];
    expect(isNearDuplicate(next, stored, 0.8, "local")).toBe(true);
    expect(isNearDuplicate(next, stored, 0.8, "workers-ai")).toBe(false);
    expect(isNearDuplicate(next, stored, 0.9, "workers-ai")).toBe(true);
    expect(isNearDuplicate(next, stored, 0.85, "some-new-embedder")).toBe(false);
    expect(isNearDuplicate(next, stored, 0.9, "some-new-embedder")).toBe(true);
  });
});

describe("near duplicates without a vector (embedding model unavailable)", () => {
  it.each([
    ["I really love sushi", "I love sushi"],
    ["i LOVE sushi!!", "I love sushi"],
    ["我特别喜欢喝乌龙茶", "我喜欢喝乌龙茶"],
  ])("%j restates %j by its words alone", (next, stored) => {
    expect(isNearDuplicate(next, stored, null, "workers-ai")).toBe(true);
    expect(isNearDuplicate(next, stored, null, "local")).toBe(true);
  });

  it.each([
    ["I love sushi", "I love sushi and ramen"], // a part of a longer fact: overlap 0.67 < 0.8
    ["I don't like coffee", "I like coffee"], // other cues
    ["I love sushi and ramen", "I love sushi"], // adds a word
    ["My favorite color is green", "My favorite color is blue"], // adds a word
  ])("%j is not merged into %j without a vector", (next, stored) => {
    expect(isNearDuplicate(next, stored, null, "workers-ai")).toBe(false);
  });

  it("a zero cosine (a lexical-only hit beside a working embedder) never merges", () => {
    expect(isNearDuplicate("I really love sushi", "I love sushi", 0, "local")).toBe(false);
  });
});
