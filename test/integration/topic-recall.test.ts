/**
 * A changed fact answers when asked in other words, on the real test D1: "where's home these days?"
 * finds "We finally relocated to Munich" (no shared word) before the Lisbon it replaced; a question about
 * the past finds Lisbon first; the same in Chinese; another user asking the same gets nothing of it; a
 * question without an area of life costs no extra statement, one with it exactly one.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MemoryRepo } from "../../src/memory/ports";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

/** Two people, each their own user: one telling their life in English, one in Chinese. */
const LIVES = {
  en: [
    "I rent a place in Lisbon, close to the river.",
    "I love spicy food, the hotter the better.",
    "I work at Northwind as a data analyst.",
    "We finally relocated to Munich last month.",
    "Today was my first day at Zalando!",
    "User adopted a dog called Pixel.",
    "Anna moved to Porto last week.",
    "My sister lives in Vienna.",
  ],
  zh: [
    "我住在北京。",
    "我是网易的产品经理。",
    "我喜欢吃辣。",
    "我搬到杭州了。",
    "我已经离职了，下家是阿里。",
    "我每个月房租四千五。",
    "更正一下，房租是五千二一个月。",
    "我妹妹搬到成都了。",
  ],
};

function countingRepo(): { repo: MemoryRepo; lexical: () => number } {
  let n = 0;
  const real = new D1MemoryRepo(env.DB);
  const repo = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (prop === "searchLexical") n += 1;
        return value.apply(target, args);
      };
    },
  });
  return { repo, lexical: () => n };
}

async function lived(lang: keyof typeof LIVES = "en") {
  const { repo, lexical } = countingRepo();
  const svc = testService({ index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex), repo });
  const scope = { accountId: "default", namespace: "user", userId: uniqueUser("topic"), actor: "t" };
  for (const content of LIVES[lang]) expect((await svc.save(scope, { content })).status).not.toBe("rejected");
  const ask = async (query: string, s = scope) =>
    (await svc.recall(s, { query }, 5)).results.map((r) => r.memory.content);
  return { svc, scope, ask, lexical };
}

describe("recall by area of life", () => {
  it("answers a changed home and job in other words, the newest first, in English and Chinese", async () => {
    const { ask } = await lived();
    const home = await ask("Where's home for me these days?");
    expect(home[0]).toBe("We finally relocated to Munich last month.");
    expect(home.indexOf("I rent a place in Lisbon, close to the river.")).not.toBe(0);
    // A friend's move and a sister's home are theirs.
    expect(home).not.toContain("Anna moved to Porto last week.");
    expect(home).not.toContain("My sister lives in Vienna.");
    expect((await ask("Who is my employer at the moment?"))[0]).toBe("Today was my first day at Zalando!");
    // As an agent asks it of the memory, about the person it serves.
    expect((await ask("where does the user live now?"))[0]).toBe("We finally relocated to Munich last month.");
    expect(await ask("does the user have a pet?")).toContain("User adopted a dog called Pixel.");
    const zh = (await lived("zh")).ask;
    expect((await zh("我现在住在哪个城市？"))[0]).toBe("我搬到杭州了。");
    expect((await zh("我目前在哪家公司？"))[0]).toBe("我已经离职了，下家是阿里。");
    // Said without 我, still the asker's rent; the sister's move is hers, not the asker's home.
    expect((await zh("我租房一个月多少钱？"))[0]).toBe("更正一下，房租是五千二一个月。");
    expect(await zh("我现在住在哪个城市？")).not.toContain("我妹妹搬到成都了。");
  });

  it("where one is from, what one must not eat, children and languages answer in other words (en, zh)", async () => {
    const { svc, scope, ask } = await lived();
    for (const content of [
      "I grew up in a fishing village near Porto.",
      "I'm allergic to peanuts, even a trace.",
      "We have two kids, a boy and a girl.",
      "I'm learning Japanese on Duolingo.",
    ])
      await svc.save(scope, { content });
    expect(await ask("Where was I raised?")).toContain("I grew up in a fishing village near Porto.");
    expect(await ask("Is there anything I must not eat?")).toContain("I'm allergic to peanuts, even a trace.");
    expect(await ask("How many children do I have?")).toContain("We have two kids, a boy and a girl.");
    expect(await ask("Which language am I studying?")).toContain("I'm learning Japanese on Duolingo.");
    // Not a statement of where one is from: the sister's home, the move.
    expect(await ask("Where was I raised?")).not.toContain("My sister lives in Vienna.");
    const zh = await lived("zh");
    for (const content of ["我老家在湖南岳阳。", "我对芒果过敏。", "我有两个孩子，一儿一女。", "你好，我叫李娜。"])
      await zh.svc.save(zh.scope, { content });
    expect(await zh.ask("我叫什么名字？")).toContain("你好，我叫李娜。");
    await zh.svc.save(zh.scope, { content: "我下周一去字节报到。" });
    expect((await zh.ask("我在哪家公司上班？"))[0]).toBe("我下周一去字节报到。");
    expect(await zh.ask("我是哪里人？")).toContain("我老家在湖南岳阳。");
    expect(await zh.ask("有什么食物我不能碰？")).toContain("我对芒果过敏。");
    expect(await zh.ask("我有几个孩子？")).toContain("我有两个孩子，一儿一女。");
  });

  it("a statement opening with an everyday word is the asker's own", async () => {
    const { svc, scope, ask } = await lived();
    await svc.save(scope, { content: "I take the metro to work now." });
    await svc.save(scope, { content: "Starting at Klarna next Monday!" });
    const work = await ask("Where do I work?");
    // The newest statement of the job first: the commute shares only the word "work".
    expect(work[0]).toBe("Starting at Klarna next Monday!");
  });

  it("an area's statements found for a new fact never include another agent's private memory", async () => {
    const { svc, scope } = await lived();
    const alpha = { ...scope, agentId: "alpha" };
    const lyon = await svc.save(alpha, { content: "I rent a flat in Lyon near the old town." });
    // Nearer in words than Lyon, so only the area search could bring it to the conflict rules.
    for (let i = 1; i <= 12; i++)
      await svc.save(scope, { content: `Big news: I've finished painting number ${i}, the frames were handed over.` });
    const dublin = await svc.save(scope, { content: "Big news: I've moved to Dublin, the keys were handed over." });
    const lyonId = lyon.id as string;
    expect(lyonId).toBeTruthy();
    expect(dublin.supersededIds).not.toContain(lyonId);
    expect((await svc.get(alpha, lyonId)).status).toBe("active");
  });

  it("a question about the past answers with what was replaced first", async () => {
    const { ask } = await lived();
    expect((await ask("Where did I live before?"))[0]).toBe("I rent a place in Lisbon, close to the river.");
    expect((await (await lived("zh")).ask("我以前住在哪"))[0]).toBe("我住在北京。");
  });

  it("another user asking the same question gets nothing of this life", async () => {
    const { ask } = await lived();
    await lived("zh");
    const stranger = { accountId: "default", namespace: "user", userId: uniqueUser("topic-other"), actor: "t" };
    expect(await ask("Where's home for me these days?", stranger)).toEqual([]);
    expect(await ask("我现在住在哪个城市？", stranger)).toEqual([]);
  });

  it("costs one more lexical statement only when the question names an area of the asker's life", async () => {
    const { ask, lexical } = await lived();
    for (const [query, extra] of [
      ["what spicy food do I love?", 0],
      ["Where does Caroline live?", 0],
      ["where do I live?", 1],
      ["Where do I work now?", 1],
    ] as const) {
      const before = lexical();
      await ask(query);
      expect(lexical() - before, query).toBe(1 + extra);
    }
  });
});
