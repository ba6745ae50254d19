import { describe, expect, it } from "vitest";
import {
  askedTokens,
  bestCoverage,
  coverage,
  coverageTokens,
  mostlyCjk,
  shouldAbstain,
  tokenWeights,
  withoutGrammarChars,
} from "../../src/memory/recall/abstention";
import { maxIdf } from "../../src/memory/recall/fuse-scores";
import { RETRIEVAL_WEIGHTS as W } from "../../src/memory/retrieval-weights";
import { indexTokens, queryTokens } from "../../src/memory/text/tokenize";

const row = (content: string) => ({ content });
const cand = (content: string, cosine = 0.1) => ({ memory: row(content), evidence: { cosine, bm25: 3 } });
const POOL = [
  row("Gina: I opened my dance studio downtown"),
  row("Jon: the support group met on Tuesday"),
  row("Jon: I lost my job at the bank"),
  row("Gina: my support for the team never wavered"),
];
const decide = (query: string, candidates: ReturnType<typeof cand>[], threshold: number = W.abstain.coverage) =>
  shouldAbstain({
    tokens: queryTokens(query),
    pool: POOL,
    corpusSize: 600,
    candidates,
    cosineFloor: W.abstain.cosine.local,
    threshold,
  });

describe("tokenWeights", () => {
  it("weighs a token no pool row holds as much as the rarest, and a common one less", () => {
    const pool = [new Set(["support", "group"]), new Set(["support"]), new Set(["job"])];
    const w = tokenWeights(["lgbtq", "support", "group"], pool, 600);
    expect(w.get("lgbtq")).toBeCloseTo(maxIdf(600));
    expect(w.get("support")!).toBeLessThan(w.get("group")!);
    expect(w.get("group")!).toBeLessThanOrEqual(maxIdf(600));
  });

  it("never weighs a token at zero, even when every row of a small corpus holds it", () => {
    const w = tokenWeights(["the"], [new Set(["the"]), new Set(["the"])], 2);
    expect(w.get("the")!).toBeGreaterThanOrEqual(W.abstain.minWeight);
  });
});

describe("coverage", () => {
  it("is the share of the query's weight the text holds", () => {
    const w = new Map([
      ["a", 3],
      ["b", 1],
    ]);
    expect(coverage(w, new Set(["a"]))).toBeCloseTo(0.75);
    expect(coverage(w, new Set(["b", "c"]))).toBeCloseTo(0.25);
    expect(coverage(new Map(), new Set(["a"]))).toBe(0);
  });

  it("takes the best candidate", () => {
    const of = (...contents: string[]) =>
      bestCoverage({
        tokens: queryTokens("When did Jon lose his job at the bank?"),
        pool: POOL,
        corpusSize: 600,
        candidates: contents.map((c) => cand(c)),
      });
    const jon = "Jon: I lost my job at the bank";
    const gina = "Gina: my support for the team never wavered";
    expect(of(gina, jon)).toBeCloseTo(of(jon));
    expect(of(jon)).toBeGreaterThan(0.6);
    expect(of(gina)).toBe(0);
  });
});

describe("shouldAbstain", () => {
  it("answers a question a memory is about", () => {
    expect(decide("When did Jon lose his job at the bank?", [cand("Jon: I lost my job at the bank")])).toBe(false);
  });

  it("abstains when the match is one common word of a question about someone else", () => {
    // The question names Caroline and LGBTQ, which no memory holds: "support" alone is not about it.
    const q = "What did Caroline say about the LGBTQ support group?";
    expect(decide(q, [cand("Gina: my support for the team never wavered")])).toBe(true);
  });

  it("is monotone in the threshold: 0 never abstains while candidates exist, above 1 always does", () => {
    const candidates = [cand("Gina: my support for the team never wavered")];
    const q = "What did Caroline say about the LGBTQ support group?";
    expect(decide(q, candidates, 0)).toBe(false);
    expect(decide("When did Jon lose his job at the bank?", [cand("Jon: I lost my job at the bank")], 1.01)).toBe(true);
    expect(decide(q, [], 0)).toBe(true);
  });

  it("answers whatever the words when a candidate is close in meaning", () => {
    const q = "What did Caroline say about the LGBTQ support group?";
    const close = cand("Gina: my support for the team never wavered", W.abstain.cosine.local);
    expect(decide(q, [close])).toBe(false);
  });

  it("keeps the dense floor's verdict when BM25 found nothing at all", () => {
    const judge = (pool: { content: string }[]) =>
      shouldAbstain({
        tokens: queryTokens("photography"),
        pool,
        corpusSize: 2,
        candidates: [cand("Photographs", 0.35)],
        cosineFloor: W.abstain.cosine.local,
        threshold: W.abstain.coverage,
      });
    expect(judge([])).toBe(false);
    expect(judge([row("Gina: photography is my hobby"), row("Photographs")])).toBe(true);
  });

  it("judges Chinese by its bigrams: a shared common character is not enough", () => {
    const pool = [row("我表哥李明在杭州开了一家咖啡店"), row("我每天早上喝咖啡"), row("周末去爬山")];
    const judge = (query: string, content: string) =>
      shouldAbstain({
        tokens: queryTokens(query),
        pool,
        corpusSize: 300,
        candidates: [cand(content)],
        cosineFloor: 1,
        threshold: W.abstain.coverageCjk,
      });
    expect(judge("我表哥在哪里开店？", "我表哥李明在杭州开了一家咖啡店")).toBe(false);
    expect(judge("王芳的未婚夫是做什么的？", "我每天早上喝咖啡")).toBe(true);
    expect(indexTokens("王芳").length).toBeGreaterThan(0);
  });
});

describe("coverageTokens", () => {
  it("leaves the words of a date out when the query names a time window, and only then", () => {
    const tokens = queryTokens("What did Mel paint in July 2023?");
    expect(coverageTokens(tokens, true)).toEqual(queryTokens("What did Mel paint?"));
    expect(coverageTokens(tokens, false)).toEqual(tokens);
    expect(coverageTokens(queryTokens("我上个月去了哪里？"), true)).not.toContain("上个");
  });
});

describe("askedTokens", () => {
  it("leaves out the words of asking that every Chinese question carries, and keeps what is asked about", () => {
    const asked = askedTokens("我最近在玩什么游戏？", false);
    expect(asked).toContain("游戏");
    expect(asked).not.toContain("最近");
    expect(askedTokens("今年我读了多少本书了？", false)).not.toContain("多少");
    expect(askedTokens("我之前跟你提到过，我的空腹血糖是多少？", false)).toEqual(queryTokens("我的空腹血糖"));
  });

  it("keeps the query's own tokens when nothing but asking is left", () => {
    expect(askedTokens("多少？", false)).toEqual(queryTokens("多少"));
  });

  it("reads 'for a living' as work, in the question and in the memory alike", () => {
    expect(askedTokens("What do I do for a living?", false)).toEqual(queryTokens("work"));
    const judge = (content: string) =>
      shouldAbstain({
        tokens: askedTokens("What do I do for a living?", false),
        pool: [row(content)],
        corpusSize: 50,
        candidates: [cand(content)],
        cosineFloor: 1,
        threshold: W.abstain.coverage,
      });
    expect(judge("My sister Anna lives in Lisbon")).toBe(true);
    expect(judge("I repair bicycles for a living")).toBe(false);
  });

  it("reads 'earn a living' and 'make a living' as work too", () => {
    expect(askedTokens("How does Tom earn a living?", false)).toEqual(queryTokens("Tom work"));
    expect(askedTokens("How does she make a living?", false)).toEqual(queryTokens("she work"));
    expect(askedTokens("Where did I earn my degree?", false)).toEqual(queryTokens("Where did I earn my degree"));
  });

  it("answers a Chinese question about what was said and abstains on one whose only match is a word of asking", () => {
    const pool = [
      row("林雨桐：最近加班多，确实经常跳过早饭。"),
      row("马晓东：宅家打游戏，已经打到第四回了"),
      row("周末去爬山"),
    ];
    const judge = (query: string, content: string) =>
      shouldAbstain({
        tokens: askedTokens(query, false),
        pool,
        corpusSize: 40,
        candidates: [cand(content)],
        cosineFloor: 1,
        threshold: W.abstain.coverageCjk,
      });
    expect(judge("我最近在玩什么游戏？", "林雨桐：最近加班多，确实经常跳过早饭。")).toBe(true);
    expect(judge("我最近在玩什么游戏？", "马晓东：宅家打游戏，已经打到第四回了")).toBe(false);
  });
});

describe("mostlyCjk", () => {
  it("tells a Chinese question from an English one, a Latin name inside either", () => {
    expect(mostlyCjk("我表哥李明在哪里工作？")).toBe(true);
    expect(mostlyCjk("Ana 的工作是什么？")).toBe(true);
    expect(mostlyCjk("What does my sister Ana do?")).toBe(false);
    expect(mostlyCjk("Where did Ana buy 月饼?")).toBe(false);
  });
});

describe("a Chinese question's grammar characters are no evidence alone", () => {
  const ZH_POOL = [
    row("我有两个孩子，一儿一女。"),
    row("车子月底要去做保养。"),
    row("我搬到厦门了。"),
    row("我喜欢喝茶"),
  ];
  const zh = (query: string, memory: string, grammar: boolean) =>
    shouldAbstain({
      tokens: grammar ? withoutGrammarChars(askedTokens(query, false)) : askedTokens(query, false),
      pool: ZH_POOL,
      corpusSize: 40,
      candidates: [cand(memory)],
      cosineFloor: W.abstain.cosine.local,
      threshold: W.abstain.coverageCjk,
    });

  it("drops 子 of 牌子 and 到 of 到期, keeps the words they are part of", () => {
    expect(withoutGrammarChars(["开", "牌", "牌子", "子", "车"])).toEqual(["开", "牌", "牌子", "车"]);
    expect(withoutGrammarChars(["护", "护照", "照", "到", "到期", "期"])).toEqual(["护", "护照", "照", "到期", "期"]);
    // Nothing else left: the question keeps them.
    expect(withoutGrammarChars(["到", "会"])).toEqual(["到", "会"]);
  });

  it("「我的护照什么时候到期」 is not answered by 「我搬到厦门了」 (到 alone); without the rule it was", () => {
    expect(zh("我的护照什么时候到期？", "我搬到厦门了。", false)).toBe(false);
    expect(zh("我的护照什么时候到期？", "我搬到厦门了。", true)).toBe(true);
  });

  it("still answers what a memory is about", () => {
    expect(zh("我有几个孩子？", "我有两个孩子，一儿一女。", true)).toBe(false);
  });
});
