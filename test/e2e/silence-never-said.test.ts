/**
 * Silence when nothing was said: a person's memories in English and Chinese, asked about
 * something they never told (their job) and about what they did tell (where the sister lives). A miss
 * is "nothing remembered", never the nearest junk ("What do I do for a living?" answered with the
 * sister's city because "living" and "lives" share a stem); what was said still answers, in words
 * differing from what was saved.
 */
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

const MEMORIES = [
  "My sister Anna lives in Lisbon with her two cats",
  "I go climbing every Saturday morning",
  "My favourite food is ramen",
  "我妹妹住在成都，去年刚买了房",
  "我每周六早上去爬山",
  "我最喜欢吃火锅",
];

async function idsOf(client: Awaited<ReturnType<typeof connect>>, query: string): Promise<string[]> {
  const r = await callTool(client, "recall_memory", { query, limit: 10 });
  expect(r.isError, textOf(r)).toBeFalsy();
  return (r.structuredContent as { memories: { id: string }[] }).memories.map((m) => m.id);
}

describe("silence when nothing was said", () => {
  it("answers nothing about a job never mentioned, in English and Chinese, and still answers what was said", async () => {
    const { key } = await createKey({ user: uniqueUser("silence") });
    const client = await connect(key);
    const ids = new Map<string, string>();
    for (const content of MEMORIES) {
      const saved = await callTool(client, "save_memory", { content });
      expect(saved.isError, textOf(saved)).toBeFalsy();
      ids.set(content, saved.structuredContent?.id as string);
    }
    for (const never of [
      "What do I do for a living?",
      "我是做什么工作的？",
      "我最近在玩什么游戏？",
      "你还记得我的车是什么牌子吗？",
      // A favourite of another kind ("My favourite food is ramen") is not about it (recall/favourite-kind.ts).
      "What's my favourite restaurant?",
    ]) {
      expect(await idsOf(client, never), never).toEqual([]);
    }
    const said: [string, string][] = [
      ["Where does my sister live?", MEMORIES[0]],
      ["What do I do on Saturdays?", MEMORIES[1]],
      ["我妹妹住在哪里？", MEMORIES[3]],
      ["我最近最喜欢吃什么？", MEMORIES[5]],
      ["你还记得我每周六早上做什么吗？", MEMORIES[4]],
    ];
    for (const [query, memory] of said) expect(await idsOf(client, query), query).toContain(ids.get(memory));
  });

  it("a favourite of another kind answers nothing; the same kind still answers (en, zh)", async () => {
    const { key } = await createKey({ user: uniqueUser("silence-favourite") });
    const client = await connect(key);
    const saved = new Map<string, string>();
    for (const content of ["Winter is my favourite season", "我最喜欢的季节是冬天", "我住在杭州", "I live in Porto"]) {
      const r = await callTool(client, "save_memory", { content });
      saved.set(content, r.structuredContent?.id as string);
    }
    expect(await idsOf(client, "What's my favourite restaurant?")).toEqual([]);
    expect(await idsOf(client, "我最喜欢哪家餐厅？")).toEqual([]);
    expect(await idsOf(client, "Which season is my favourite?")).toContain(saved.get("Winter is my favourite season"));
    expect(await idsOf(client, "我最喜欢的季节是什么？")).toContain(saved.get("我最喜欢的季节是冬天"));
  });

  it("still answers the job once it is told, in either language", async () => {
    const { key } = await createKey({ user: uniqueUser("silence-job") });
    const client = await connect(key);
    const job = await callTool(client, "save_memory", { content: "I work as a nurse at the city hospital" });
    const brother = await callTool(client, "save_memory", { content: "My brother lives in Porto" });
    expect(await idsOf(client, "Where do I work?")).toEqual([job.structuredContent?.id]);
    // A new job told in Chinese replaces the one told in English (write-rules §4: 在<a workplace>做).
    const zh = await callTool(client, "save_memory", { content: "我在一家银行做理财经理" });
    expect(zh.structuredContent?.superseded_ids).toEqual([job.structuredContent?.id]);
    const bank = await idsOf(client, "我在哪家银行上班？");
    expect(bank[0]).toBe(zh.structuredContent?.id);
    expect(bank).not.toContain(brother.structuredContent?.id);
    expect((await idsOf(client, "Where do I work?"))[0]).toBe(zh.structuredContent?.id);
  });
});
