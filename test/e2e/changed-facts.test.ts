/**
 * A life that changes, tried as a person would over /mcp with the MCP SDK client: a fact replaced by a
 * later one answers with the newer fact, marked as an update of what it replaced (recall at every
 * stage, ChatGPT's search, the memory-context prompt); a question about the past answers from what
 * was replaced, oldest first; a conversation's own correction supersedes what it said before.
 */
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

type View = {
  id: string;
  content: string;
  status: string;
  update?: { replaced_id: string; replaced_at: string };
};
type Recall = { memories: View[]; stage: number };

/**
 * A person's store, not an empty one: a few facts about other things first. (In a store of two
 * memories a word in one of them is in half the rows, where BM25's idf is zero.)
 */
async function client(): Promise<Client> {
  const c = await connect((await createKey({ user: uniqueUser("life") })).key);
  for (const content of ["My sister Ana is a nurse", "I like spicy food", "我喜欢看科幻电影"])
    expect((await callTool(c, "save_memory", { content })).isError).toBeFalsy();
  return c;
}

async function save(c: Client, content: string, extra: Record<string, unknown> = {}) {
  const r = await callTool(c, "save_memory", { content, ...extra });
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as { id: string; status: string; superseded_ids?: string[] };
}

async function recall(c: Client, query: string, args: Record<string, unknown> = { limit: 5 }) {
  const r = await callTool(c, "recall_memory", { query, ...args });
  expect(r.isError, textOf(r)).toBeFalsy();
  return { memories: (r.structuredContent as Recall).memories, text: textOf(r) };
}

describe("a changed fact answers with its successor", () => {
  it("Lisbon then Munich: 'where do I live?' answers Munich, updated, was Lisbon — at every stage", async () => {
    const c = await client();
    const lisbon = await save(c, "I live in Lisbon");
    const munich = await save(c, "I moved to Munich last month");
    expect(munich.status).toBe("superseded");
    expect(munich.superseded_ids).toEqual([lisbon.id]);
    // A search (limit) and the session's stages 1, 2 and 3 (no limit).
    for (const args of [{ limit: 5 }, {}, {}, {}]) {
      const r = await recall(c, "where do I live?", args);
      expect(r.memories[0]?.content, JSON.stringify(args)).toBe("I moved to Munich last month");
      expect(r.memories[0].update).toEqual({ replaced_id: lisbon.id, replaced_at: expect.any(String) });
      expect(r.memories.map((m) => m.id)).not.toContain(lisbon.id);
      expect(r.text).toMatch(/updated \d{1,2} [A-Z][a-z]{2}; was: "I live in Lisbon"/);
    }
  });

  it("「我住在北京」 then 「我搬到杭州了」: 「我住在哪」 answers 杭州; 「我以前住在哪」 answers 北京", async () => {
    const c = await client();
    const beijing = await save(c, "我住在北京");
    const hangzhou = await save(c, "我搬到杭州了");
    expect(hangzhou.superseded_ids).toEqual([beijing.id]);
    const now = await recall(c, "我住在哪");
    expect(now.memories[0]?.content).toBe("我搬到杭州了");
    expect(now.memories[0].update?.replaced_id).toBe(beijing.id);
    const before = await recall(c, "我以前住在哪");
    expect(before.memories[0]?.content).toBe("我住在北京");
    expect(before.memories[0].status).toBe("superseded");
  });

  it("a change told in other words answers a question in other words again, the newest first (en, zh)", async () => {
    const c = await client();
    await save(c, "I rent a place in Seattle, close to the river.");
    await save(c, "We finally relocated to Lisbon; the boxes are still everywhere.");
    await save(c, "I report to Anna, my boss.");
    await save(c, "Today was my first day at Larkspur Books!");
    for (const q of ["Where's home for me right now?", "what city is the user based in these days?"])
      expect((await recall(c, q)).memories[0]?.content, q).toBe(
        "We finally relocated to Lisbon; the boxes are still everywhere.",
      );
    expect((await recall(c, "Who is my employer at the moment?")).memories[0]?.content).toBe(
      "Today was my first day at Larkspur Books!",
    );
    expect((await recall(c, "Where did I use to live?")).memories[0]?.content).toBe(
      "I rent a place in Seattle, close to the river.",
    );
    await save(c, "我现在在青岛生活，已经五年了。");
    await save(c, "折腾了半年，终于在武汉安顿下来了。");
    expect((await recall(c, "我现在人在哪座城市？")).memories[0]?.content).toBe("折腾了半年，终于在武汉安顿下来了。");
    // Never said: nothing, in both languages.
    expect((await recall(c, "What does my uncle do for a living?")).memories).toEqual([]);
    expect((await recall(c, "我奶奶叫什么名字？")).memories).toEqual([]);
  });

  it("with include_superseded both the old fact and the new one come back", async () => {
    const c = await client();
    const beijing = await save(c, "我住在北京");
    const hangzhou = await save(c, "我搬到杭州了");
    const r = await recall(c, "我住在哪", { limit: 5, include_superseded: true });
    expect(r.memories.map((m) => m.id)).toEqual(expect.arrayContaining([beijing.id, hangzhou.id]));
    expect(r.memories.find((m) => m.id === hangzhou.id)?.update?.replaced_id).toBe(beijing.id);
  });

  it("a question about the past answers from the replaced facts, oldest first", async () => {
    const c = await client();
    const paris = await save(c, "I live in Paris", { event_time: "2021-03-01T00:00:00Z" });
    const lisbon = await save(c, "I moved to Lisbon", { event_time: "2024-02-01T00:00:00Z" });
    const munich = await save(c, "I moved to Munich last month");
    expect(lisbon.superseded_ids).toEqual([paris.id]);
    expect(munich.superseded_ids).toEqual([lisbon.id]);
    const before = await recall(c, "where did I live before?");
    expect(before.memories.slice(0, 2).map((m) => m.id)).toEqual([paris.id, lisbon.id]);
    // Paris held from March 2021 until Lisbon (February 2024), Lisbon until Munich was saved.
    const in2022 = await recall(c, "where did I live in 2022?");
    expect(in2022.memories[0]?.id).toBe(paris.id);
    expect(in2022.memories.map((m) => m.id)).not.toContain(lisbon.id);
    const in2025 = await recall(c, "where did I live in 2025?");
    expect(in2025.memories[0]?.id).toBe(lisbon.id);
    const current = await recall(c, "where do I live?");
    expect(current.memories[0]?.id).toBe(munich.id);
    expect(current.memories.filter((m) => m.id === munich.id)).toHaveLength(1);
  });

  it("'I started a new job at Zalando' replaces 'I work at Northwind'", async () => {
    const c = await client();
    const northwind = await save(c, "I work at Northwind");
    const zalando = await save(c, "I started a new job at Zalando");
    expect(zalando.superseded_ids).toEqual([northwind.id]);
    const r = await recall(c, "where do I work?");
    expect(r.memories[0]?.content).toBe("I started a new job at Zalando");
    expect(r.memories.map((m) => m.content)).not.toContain("I work at Northwind");
  });

  /** Twelve facts about other things, each nearer the new fact in words than the old one is. */
  const nearer = {
    en: (i: number) => `Big news: I've finished painting number ${i}, the frames were handed over last week.`,
    zh: (i: number) => `现在开始学第${i}首曲子了。`,
    partner: (i: number) => `Things with project ${i} went well in spring, I'm proud now.`,
  };
  it.each([
    [
      "I rent a place in Lyon, close to the river.",
      "Big news: I've moved to Dublin, the keys were handed over last week.",
      "en",
    ],
    ["我每天坐地铁上班。", "现在改骑电动车了。", "zh"],
    ["Taylor is my partner.", "I'm with Robin now, things with Taylor ended in spring.", "partner"],
  ] as const)(
    "a change in other words replaces %j though a dozen facts are nearer in words",
    async (before, after, kind) => {
      const c = await client();
      const old = await save(c, before);
      // Neither BM25 nor the hash vector puts the old fact among the most similar ones: its area of life does.
      for (let i = 1; i <= 12; i++) await save(c, nearer[kind](i));
      const next = await save(c, after);
      expect(next.superseded_ids).toEqual([old.id]);
    },
  );

  it("「换工作之前我在哪里上班」 answers the replaced job though it shares no word with the question", async () => {
    const c = await client();
    const school = await save(c, "我在一所国际学校干了两年产品经理了。");
    const meituan = await save(c, "我跳槽去美团了，这周刚入职。");
    expect(meituan.superseded_ids).toEqual([school.id]);
    for (const q of ["换工作之前我在哪里上班？", "我上一份工作是在哪家公司？"]) {
      const r = await recall(c, q);
      expect(r.memories[0]?.content, q).toBe("我在一所国际学校干了两年产品经理了。");
    }
    expect((await recall(c, "我在哪上班")).memories[0]?.content).toBe("我跳槽去美团了，这周刚入职。");
  });

  it("ChatGPT's search and the memory-context prompt give the successor, marked as an update", async () => {
    const c = await client();
    await save(c, "I live in Lisbon");
    const munich = await save(c, "I moved to Munich last month");
    const found = await callTool(c, "search", { query: "where do I live?" });
    const results = (found.structuredContent as { results: { id: string; title: string }[] }).results;
    expect(results[0]?.id).toBe(munich.id);
    expect(results[0].title).toContain("was: I live in Lisbon");
    const prompt = await c.getPrompt({ name: "memory-context", arguments: { topic: "where do I live" } });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(text).toContain('"I moved to Munich last month"');
    expect(text).toMatch(/updated \d{1,2} [A-Z][a-z]{2}; was: "I live in Lisbon"/);
  });
});

describe("the chain's edges", () => {
  it("only the contradicted clause is replaced: the kept clause answers for itself", async () => {
    const c = await client();
    const old = await save(c, "I live in Lisbon and teach yoga on weekends");
    const porto = await save(c, "I moved to Porto");
    expect(porto.superseded_ids).toEqual([old.id]);
    const teach = await recall(c, "what do I teach on weekends?");
    expect(teach.memories[0]?.content).toBe("I teach yoga on weekends");
    expect(teach.memories.filter((m) => m.update)).toEqual([]);
    const home = await recall(c, "where do I live?");
    expect(home.memories[0]?.content).toBe("I moved to Porto");
    expect(home.memories[0].update?.replaced_id).toBe(old.id);
  });

  it("a replaced fact whose successor was deleted answers nothing", async () => {
    const c = await client();
    await save(c, "I live in Lisbon");
    const munich = await save(c, "I moved to Munich last month");
    expect((await callTool(c, "delete_memory", { id: munich.id })).isError).toBeFalsy();
    const r = await recall(c, "where do I live?");
    expect(r.memories.map((m) => m.content)).not.toContain("I live in Lisbon");
    expect(r.memories.map((m) => m.id)).not.toContain(munich.id);
  });
});

describe("a conversation corrects itself", () => {
  type Outcome = { content: string; status: string; id: string | null; superseded_ids: string[]; turn: number | null };
  async function summarize(c: Client, transcript: string) {
    const r = await callTool(c, "summarize_conversation", { transcript });
    expect(r.isError, textOf(r)).toBeFalsy();
    return { outcomes: (r.structuredContent as { outcomes: Outcome[] }).outcomes, text: textOf(r) };
  }

  for (const [transcript, query, current, old] of [
    [
      "user: I drink oolong every morning.\nassistant: Nice!\nuser: Actually I switched to green tea.",
      "what do I drink every morning?",
      /green tea/,
      /oolong/,
    ],
    [
      "user: I run 5k every morning.\nassistant: Impressive.\nuser: Actually I stopped running, I swim now.",
      "do I run every morning?",
      /stopped running/,
      /run 5k/,
    ],
    ["user: 我每天坐地铁上班。\nassistant: 路上辛苦。\nuser: 现在改骑电动车了。", "我怎么上班", /电动车/, /地铁/],
    [
      "user: 我每周三晚上去打羽毛球。\nassistant: 挺好的。\nuser: 羽毛球不打了，最近改成每天晚上散步。",
      "我晚上做什么运动",
      /散步/,
      /每周三晚上去打羽毛球/,
    ],
  ] as const) {
    it(`the later turn supersedes the earlier one: ${JSON.stringify(transcript.slice(0, 30))}`, async () => {
      const c = await client();
      const { outcomes, text } = await summarize(c, transcript);
      const first = outcomes.find((o) => old.test(o.content));
      const later = outcomes.find((o) => current.test(o.content));
      expect(first, JSON.stringify(outcomes)).toBeDefined();
      expect(later, JSON.stringify(outcomes)).toBeDefined();
      expect(later!.status).toBe("superseded");
      expect(later!.superseded_ids).toEqual([first!.id]);
      expect(text).toMatch(/corrects what was said earlier in this conversation|更正了这段对话前面说的/);
      const r = await recall(c, query);
      expect(r.memories[0]?.content).toMatch(current);
      expect(r.memories.map((m) => m.content).filter((t) => old.test(t) && !current.test(t))).toEqual([]);
    });
  }
});
