/**
 * Relation words find people, by default, over /mcp with the MCP SDK client: a question that names
 * someone by how they relate to the user ("my best friend", 「我闺蜜」「我对象」「我发小」「我表哥」
 * 「我领导」) is answered from the memories about the person that relation word names, in words that
 * share nothing with the question; a relation the user never named stays unanswered, and no other
 * user's person is found.
 */
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

type Recalled = { memories: { content: string }[] };

async function person(facts: string[]): Promise<Client> {
  const { key } = await createKey({ user: uniqueUser("relations") });
  const client = await connect(key);
  for (const content of facts) {
    const r = await callTool(client, "save_memory", { content });
    expect(r.isError, textOf(r)).toBeFalsy();
  }
  return client;
}

async function recalled(client: Client, query: string): Promise<string[]> {
  const r = await callTool(client, "recall_memory", { query, limit: 5 });
  expect(r.isError, textOf(r)).toBeFalsy();
  return (r.structuredContent as Recalled).memories.map((m) => m.content);
}

const ZH_LIFE = [
  "我闺蜜叫小雅",
  "小雅在银行做理财经理",
  "我对象叫阿杰",
  "阿杰在一家游戏公司写代码",
  "我发小叫王磊",
  "王磊在成都开了一家火锅店",
  "我表哥李明在上海",
  "李明下个月结婚",
  "我领导叫张总",
  "张总下周调去深圳分公司",
  "我住在杭州",
  "我每天早上喝绿茶",
];

const EN_LIFE = [
  "My best friend is called Sarah",
  "Sarah works as a nurse at the children's hospital",
  "My brother Tom lives in Leeds",
  "Tom is training for the London marathon",
  "My boss is named Priya",
  "Priya is moving the team to a four-day week",
  "I live in Lisbon",
  "I drink green tea every morning",
];

describe("relation words find people (Chinese)", () => {
  it.each([
    ["我闺蜜是做什么工作的", "小雅在银行做理财经理"],
    ["我对象是做什么的", "阿杰在一家游戏公司写代码"],
    ["我发小做什么生意", "王磊在成都开了一家火锅店"],
    ["我闺蜜在哪上班", "小雅在银行做理财经理"],
    ["我表哥什么时候成家", "李明下个月结婚"],
    ["我领导以后在哪上班", "张总下周调去深圳分公司"],
  ])("%s → %s", async (query, expected) => {
    const client = await person(ZH_LIFE);
    expect(await recalled(client, query)).toContain(expected);
  });
});

describe("relation words find people (English)", () => {
  it.each([
    ["what does my best friend do?", "Sarah works as a nurse at the children's hospital"],
    ["What does my best friend do for a living?", "Sarah works as a nurse at the children's hospital"],
    ["what race is my brother preparing for?", "Tom is training for the London marathon"],
    ["what is my boss changing?", "Priya is moving the team to a four-day week"],
  ])("%s → %s", async (query, expected) => {
    const client = await person(EN_LIFE);
    expect(await recalled(client, query)).toContain(expected);
  });
});

describe("the ways people introduce someone", () => {
  const EN_INTRODUCED = [
    "I have a younger brother, Kofi.",
    "Kofi works as a paramedic.",
    "My manager is Raj.",
    "Raj runs the night shift at the depot.",
    "I share the flat with Tom.",
    "Tom teaches chemistry at a secondary school.",
  ];
  const ZH_INTRODUCED = [
    "我有个哥哥，叫王磊。",
    "王磊在机场做地勤。",
    "阿峰是我们组的领导，我直接向他汇报。",
    "阿峰自己开了家咖啡馆。",
    "我和欣欣合租，她是我室友。",
    "欣欣在律所当律师。",
  ];
  it.each([
    ["What's my brother's job?", "Kofi works as a paramedic."],
    ["What does my boss do?", "Raj runs the night shift at the depot."],
    ["What does my flatmate do for work?", "Tom teaches chemistry at a secondary school."],
  ])("%s → %s", async (query, expected) => {
    expect(await recalled(await person(EN_INTRODUCED), query)).toContain(expected);
  });
  it.each([
    ["我哥是做什么工作的？", "王磊在机场做地勤。"],
    ["我上司干哪一行？", "阿峰自己开了家咖啡馆。"],
    ["我室友的职业是什么？", "欣欣在律所当律师。"],
  ])("%s → %s", async (query, expected) => {
    expect(await recalled(await person(ZH_INTRODUCED), query)).toContain(expected);
  });
});

describe("a life that changes", () => {
  it("a new partner: 'my partner' finds the one named last", async () => {
    const client = await person(["My partner is called Alex", "Alex teaches piano at the conservatory"]);
    for (const content of ["My partner is called Sam", "Sam cooks at a ramen bar in Kreuzberg"]) {
      const r = await callTool(client, "save_memory", { content });
      expect(r.isError, textOf(r)).toBeFalsy();
    }
    expect(await recalled(client, "where does my partner work?")).toContain("Sam cooks at a ramen bar in Kreuzberg");
  });
});

describe("a relation word finds only the user's own people", () => {
  it("a relation never named is not answered with someone else", async () => {
    const client = await person(EN_LIFE);
    expect(await recalled(client, "what does my sister do?")).toEqual([]);
    const zh = await person(ZH_LIFE);
    expect(await recalled(zh, "我妹妹养了什么宠物")).toEqual([]);
  });

  it("another user's best friend is not this user's, even when this user knows someone of that name", async () => {
    await person(["My best friend is called Sarah", "Sarah works as a nurse at the children's hospital"]);
    // The stranger's Sarah is a neighbour: an entity of the same name (and id), never their best friend.
    const stranger = await person(["My neighbour is called Sarah", "Sarah grows tomatoes on her balcony"]);
    expect(await recalled(stranger, "what does my best friend do?")).toEqual([]);
    expect(await recalled(stranger, "what does my neighbour grow?")).toContain("Sarah grows tomatoes on her balcony");
  });
});
