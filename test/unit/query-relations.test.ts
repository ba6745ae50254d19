/**
 * @module test/unit/query-relations
 * The relation phrases of a recall query, English and Chinese: a relation word after a possessive,
 * with the alias key an entity holds for it and where the phrase sits in the query; none without a
 * possessive, so questions without one cost recall nothing.
 */
import { describe, expect, it } from "vitest";
import { relationPhrases } from "../../src/memory/entities/query-relations";

const keys = (q: string) => relationPhrases(q).map((p) => p.key);
const spans = (q: string) => relationPhrases(q).map((p) => q.slice(p.start, p.end));

describe("relation phrases", () => {
  it.each([
    ["what does my best friend do?", ["best friend"], ["my best friend"]],
    ["What is my brother training for?", ["brother"], ["my brother"]],
    ["where does my best friend's sister live?", ["best friend"], ["my best friend"]],
    ["how old is my mom and where does my dad work?", ["mom", "dad"], ["my mom", "my dad"]],
    ["what's our boss changing?", ["boss"], ["our boss"]],
    ["我闺蜜是做什么工作的", ["闺蜜"], ["我闺蜜"]],
    ["我的表哥什么时候结婚", ["表哥"], ["我的表哥"]],
    ["我们领导要去哪", ["领导"], ["我们领导"]],
    ["我对象和我发小认识吗", ["对象", "发小"], ["我对象", "我发小"]],
    ["What's my big sister's job?", ["sister"], ["my big sister"]],
    ["How does my younger brother earn a living?", ["brother"], ["my younger brother"]],
    ["What does my flatmate do for work?", ["flatmate"], ["my flatmate"]],
    ["What's my closest friend's job?", ["closest friend"], ["my closest friend"]],
    ["When is my mother-in-law coming?", ["mother-in-law"], ["my mother-in-law"]],
    ["我婆婆什么时候来", ["婆婆"], ["我婆婆"]],
    // The brother-in-law, not 「我姐」 (the sister) said once.
    ["我姐夫在哪上班", ["姐夫"], ["我姐夫"]],
    ["我哥是做什么工作的？", ["哥哥"], ["我哥"]],
    ["我妈妈喜欢什么", ["妈妈"], ["我妈妈"]],
  ])("%s", (query, expectedKeys, expectedSpans) => {
    expect(keys(query)).toEqual(expectedKeys);
    expect(spans(query)).toEqual(expectedSpans);
  });

  it.each([
    "what does Sarah do?",
    "a friend of a friend told me",
    "where do I live?",
    "朋友圈里有什么新消息",
    "面向对象编程是什么",
    "我住在哪",
  ])("none in %s", (query) => {
    expect(relationPhrases(query)).toEqual([]);
  });

  it("reads at most four phrases", () => {
    expect(relationPhrases("my mom my dad my sister my brother my aunt my uncle")).toHaveLength(4);
  });
});
