/**
 * @module test/unit/tokenize
 * Properties of the shared tokenizer: what BM25 indexing, query building and duplicate detection
 * rely on.
 */
import { describe, expect, it } from "vitest";
import {
  ftsMatchExpression,
  indexTokens,
  lexicalOverlap,
  normalizeForHash,
  queryTokens,
  STEM_CACHE_MAX,
  stemCacheSize,
} from "../../src/memory/text/tokenize";

const shared = (a: string[], b: string[]) => a.filter((t) => b.includes(t));

describe("indexTokens, Latin text", () => {
  it("stems inflections to one token", () => {
    const [running] = indexTokens("running");
    expect(running).toBe(indexTokens("runs")[0]);
    expect(indexTokens("Prefers")).toEqual(indexTokens("prefer"));
  });

  it("keeps order and repeats, drops stop words", () => {
    expect(indexTokens("The cat and the other cat")).toEqual(["cat", "cat"]);
  });

  it("lower-cases, applies NFKC and merges in-word apostrophes", () => {
    expect(indexTokens("DON'T Ｆｕｌｌ")).toEqual(["dont", "full"]);
    expect(indexTokens("don’t")).toEqual(["dont"]);
  });

  it("keeps numbers, accented and non-English words whole", () => {
    expect(indexTokens("café 2024 v2")).toEqual(["café", "2024", "v2"]);
  });

  it("keeps negations, which change a fact's meaning", () => {
    expect(indexTokens("does not like coffee")).toContain("not");
  });

  it("produces only letter/digit tokens (one unicode61 token each)", () => {
    const text = 'node.js, C++ & e-mail: "quoted" — naïve résumé; 喜欢「哥特风」服装！';
    for (const token of indexTokens(text)) expect(token).toMatch(/^[\p{L}\p{N}]+$/u);
  });
});

describe("indexTokens, CJK text", () => {
  it("turns a run into overlapping bigrams plus its characters", () => {
    const tokens = indexTokens("哥特风");
    expect(tokens).toEqual(expect.arrayContaining(["哥特", "特风", "哥", "特", "风"]));
  });

  it("makes a one-character run a unigram", () => {
    expect(indexTokens("猫")).toEqual(["猫"]);
  });

  it("drops bigrams touching stop characters and stop words", () => {
    const tokens = indexTokens("喜欢什么服装");
    expect(tokens).toEqual(expect.arrayContaining(["喜欢", "服装"]));
    for (const bad of ["什么", "欢什", "么服", "什", "么"]) expect(tokens).not.toContain(bad);
    expect(indexTokens("我的是吗")).toEqual([]);
  });

  it("keeps content words that contain a stop character", () => {
    expect(indexTokens("每周学吉他")).toContain("吉他");
    expect(indexTokens("住在成都")).toContain("成都");
  });

  it("shares 喜欢 and 服装 between a memory and a question about it", () => {
    const doc = indexTokens("繁星喜欢哥特风服装");
    const query = queryTokens("喜欢什么服装");
    expect(shared(query, doc)).toEqual(expect.arrayContaining(["喜欢", "服装"]));
  });

  it("splits mixed scripts at the boundary", () => {
    expect(indexTokens("用TypeScript写代码")).toEqual(["用", "typescript", "写", "写代", "代", "代码", "码"]);
  });

  it("handles kana and hangul as CJK runs", () => {
    expect(indexTokens("テスト")).toContain("テス");
    expect(indexTokens("한국어")).toContain("한국");
  });
});

describe("queryTokens", () => {
  it("drops English question words and auxiliaries, deduplicates", () => {
    expect(queryTokens("Which language do I prefer for new code? code!")).toEqual(["languag", "prefer", "new", "code"]);
    expect(queryTokens("what does she like, and when?")).toEqual(["like"]);
  });

  it("drops Chinese question words and particles, keeps bigrams and their characters", () => {
    expect(queryTokens("喜欢什么服装呢")).toEqual(["喜", "喜欢", "欢", "服", "服装", "装"]);
    expect(queryTokens("哪些是你的吗")).toEqual([]);
  });

  it("matches the document form of the same words", () => {
    const doc = indexTokens("Prefers TypeScript for all new code");
    const query = queryTokens("which language do I prefer for new code?");
    expect(shared(query, doc)).toEqual(["prefer", "new", "code"]);
  });

  it("keeps a lone content character so one-character questions still match", () => {
    expect(queryTokens("喜欢喝什么茶")).toContain("茶");
    expect(indexTokens("喜欢喝绿茶")).toContain("茶");
  });

  it("keeps every content character, so a character inside a bigram still matches (猫 of 猫叫)", () => {
    expect(queryTokens("我的猫叫什么名字")).toEqual(expect.arrayContaining(["猫", "猫叫", "名字"]));
    expect(shared(queryTokens("我早餐改成吃什么了"), indexTokens("改吃燕麦和鸡蛋"))).toEqual(["改", "吃"]);
  });
});

describe("ftsMatchExpression", () => {
  it("quotes each token and joins with OR", () => {
    expect(ftsMatchExpression(["prefer", "喜欢"])).toBe('"prefer" OR "喜欢"');
  });

  it("escapes double quotes by doubling them", () => {
    expect(ftsMatchExpression(['a"b'])).toBe('"a""b"');
  });

  it("is empty for no tokens", () => {
    expect(ftsMatchExpression([])).toBe("");
    expect(ftsMatchExpression(queryTokens("what is it?"))).toBe("");
  });
});

describe("normalizeForHash", () => {
  it("ignores case, punctuation and spacing", () => {
    expect(normalizeForHash("I love sushi!")).toBe(normalizeForHash("  i love   sushi "));
    expect(normalizeForHash("I love sushi!")).toBe("i love sushi");
  });

  it("strips CJK punctuation and spaces between CJK characters", () => {
    expect(normalizeForHash("我 喜欢，寿司。")).toBe(normalizeForHash("我喜欢寿司！"));
    expect(normalizeForHash("「黑色」、暗红色？")).toBe("黑色暗红色");
  });

  it("folds full-width forms (NFKC)", () => {
    expect(normalizeForHash("ＳＵＳＨＩ")).toBe("sushi");
  });

  it("keeps symbols that change meaning", () => {
    expect(normalizeForHash("I use C#")).not.toBe(normalizeForHash("I use C"));
    expect(normalizeForHash("I use C++")).not.toBe(normalizeForHash("I use C"));
  });
});

describe("lexicalOverlap", () => {
  it("is 1 for the same content and 0 for disjoint content", () => {
    expect(lexicalOverlap("I love sushi!", "i LOVE sushi")).toBe(1);
    expect(lexicalOverlap("I love sushi", "Drives a white car")).toBe(0);
  });

  it("is between 0 and 1 and symmetric for partial overlap", () => {
    const ab = lexicalOverlap("Prefers TypeScript for new code", "Prefers Rust for new code");
    expect(ab).toBeGreaterThan(0.3);
    expect(ab).toBeLessThan(1);
    expect(lexicalOverlap("Prefers Rust for new code", "Prefers TypeScript for new code")).toBe(ab);
  });

  it("is 0 when a text has no tokens", () => {
    expect(lexicalOverlap("", "")).toBe(0);
    expect(lexicalOverlap("?!", "what is it")).toBe(0);
  });

  it("ranks a paraphrase above an unrelated Chinese memory", () => {
    const near = lexicalOverlap("繁星喜欢哥特风服装", "繁星喜欢哥特风格的服装");
    const far = lexicalOverlap("繁星喜欢哥特风服装", "繁星每天早上喝一杯黑咖啡");
    expect(near).toBeGreaterThan(far);
  });
});

/** Distinct made-up letter words ("qa", "qb", … base 26), none of them stop words. */
const madeUpWords = (n: number, prefix: string) =>
  Array.from(
    { length: n },
    (_, i) => `${prefix}${i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)))}ing`,
  );

describe("stem cache", () => {
  it("stays within its bound over more distinct words than it holds, and stems stay the same", () => {
    const words = madeUpWords(STEM_CACHE_MAX + 2_000, "zq");
    const first = indexTokens(words.slice(0, 50).join(" "));
    for (let i = 0; i < words.length; i += 500) {
      indexTokens(words.slice(i, i + 500).join(" "));
      expect(stemCacheSize()).toBeLessThanOrEqual(STEM_CACHE_MAX);
    }
    expect(stemCacheSize()).toBeGreaterThan(0);
    expect(indexTokens(words.slice(0, 50).join(" "))).toEqual(first);
  });
});
