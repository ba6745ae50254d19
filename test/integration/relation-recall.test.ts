/**
 * Relation words find people at no cost to other questions, on the real test D1: a recall without a
 * relation word makes no entity call at all; one with a relation word makes exactly one (the alias
 * lookup), which through the real Durable Object is exactly one more D1 statement than the same
 * question asked with the name; switched off (RECALL_RELATIONS=off) it makes none.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { MemoryService } from "../../src/memory/memory-service";
import { ownerAddress } from "../../src/memory/owner-address";
import type { EntityStore } from "../../src/memory/ports";
import { D1EntityStore } from "../../src/storage/entities/d1-entity-store";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

const LIFE = [
  "My best friend is called Sarah",
  "Sarah works as a nurse at the children's hospital",
  "I live in Lisbon",
  "I drink green tea every morning",
  "我闺蜜叫小雅",
  "小雅在银行做理财经理",
];

/** The real D1 entity store, counting the calls recall makes on it. */
function countingStore(): { store: EntityStore; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const real = new D1EntityStore(env.DB);
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
  return { store, calls };
}

async function seeded(): Promise<{
  svc: MemoryService;
  calls: Map<string, number>;
  scope: { accountId: string; namespace: string; userId: string; actor: string };
}> {
  const { store, calls } = countingStore();
  const svc = testService({
    index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
    entities: store,
  });
  const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rel-cost"), actor: "t" };
  for (const content of LIFE) await svc.save(scope, { content });
  calls.clear();
  return { svc, calls, scope };
}

describe("relation words in recall: cost", () => {
  it("a question without a relation word makes no entity call; one with it makes one lookup", async () => {
    const { svc, calls, scope } = await seeded();
    const contents = async (query: string) =>
      (await svc.recall(scope, { query }, 5)).results.map((r) => r.memory.content);
    for (const query of ["what does Sarah do?", "where do I live?", "小雅是做什么工作的", "a friend of a friend"]) {
      await contents(query);
      expect(Object.fromEntries(calls), query).toEqual({});
    }
    expect(await contents("what does my best friend do?")).toContain(
      "Sarah works as a nurse at the children's hospital",
    );
    expect(Object.fromEntries(calls)).toEqual({ aliasNames: 1 });
    calls.clear();
    expect(await contents("我闺蜜是做什么工作的")).toContain("小雅在银行做理财经理");
    expect(Object.fromEntries(calls)).toEqual({ aliasNames: 1 });
    calls.clear();
    // A relation the user never named: the one lookup, then the question as asked.
    expect(await contents("what does my sister do?")).toEqual([]);
    expect(Object.fromEntries(calls)).toEqual({ aliasNames: 1 });
  });

  it("finds the person however the question words the relation and the job", async () => {
    const { svc, scope } = await seeded();
    const contents = async (query: string) =>
      (await svc.recall(scope, { query }, 5)).results.map((r) => r.memory.content);
    for (const query of [
      "What's my closest friend's job?",
      "How does my best friend earn a living?",
      "How does my close friend make a living?",
    ])
      expect(await contents(query), query).toContain("Sarah works as a nurse at the children's hospital");
  });

  it("finds a pet told of by its breed, asked of as 'our dog'", async () => {
    const { svc, scope } = await seeded();
    await svc.save(scope, { content: "We have a golden retriever called Biscuit." });
    await svc.save(scope, { content: "Biscuit hates the vacuum cleaner." });
    const found = (await svc.recall(scope, { query: "What's the name of our dog?" }, 5)).results.map(
      (r) => r.memory.content,
    );
    expect(found).toContain("We have a golden retriever called Biscuit.");
  });

  it("after a break-up, 'my girlfriend' is the new partner, however she was told of", async () => {
    const { svc, scope } = await seeded();
    for (const content of [
      "My girlfriend Elin is a vet.",
      "Elin and I split up last month.",
      "I've started seeing someone new, her name is Maja.",
      "Maja flies planes for a living.",
    ])
      await svc.save(scope, { content });
    const found = (await svc.recall(scope, { query: "What does my girlfriend do?" }, 5)).results.map(
      (r) => r.memory.content,
    );
    expect(found[0]).toBe("Maja flies planes for a living.");
  });

  it("the way a question is framed does not hide what it asks, even in a store of two memories", async () => {
    const svc = testService({ index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex) });
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("framing"), actor: "t" };
    await svc.save(scope, { content: "I have a standing call with my mentor every other Friday." });
    await svc.save(scope, { content: "My son Arjun just turned 7." });
    for (const query of [
      "What about my mentor?",
      "What did I tell you about my mentor?",
      "What do you know about my mentor?",
    ]) {
      const found = (await svc.recall(scope, { query }, 5)).results.map((r) => r.memory.content);
      expect(found, query).toEqual(["I have a standing call with my mentor every other Friday."]);
    }
  });

  it("switched off, a relation word makes no call and finds nobody", async () => {
    const { svc, calls, scope } = await seeded();
    const off = svc.withDeps({ ...svc.deps, settings: { ...svc.deps.settings, relationRecall: false } });
    const found = (await off.recall(scope, { query: "what does my best friend do?" }, 5)).results;
    expect(found.map((r) => r.memory.content)).not.toContain("Sarah works as a nurse at the children's hospital");
    expect(Object.fromEntries(calls)).toEqual({});
  });

  it("through the Durable Object: exactly one more D1 statement than the same question with the name", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("rel-d1"), actor: "t" };
    const stub = env.USER_MEMORY.get(env.USER_MEMORY.idFromName(ownerAddress(scope)));
    for (const content of LIFE) expect((await stub.save(scope, { content })).ok).toBe(true);
    const statements = async (query: string) => {
      const r = await stub.search(scope, { query }, 5);
      if (!r.ok) throw new Error(r.error.message);
      return { n: r.timing.d1Queries, found: r.value.results.map((c) => c.memory.content) };
    };
    await statements("what does Sarah do?"); // warm: what a first search learns is not counted
    for (const [named, related, expected] of [
      ["what does Sarah do?", "what does my best friend do?", "Sarah works as a nurse at the children's hospital"],
      ["小雅是做什么工作的", "我闺蜜是做什么工作的", "小雅在银行做理财经理"],
    ]) {
      const plain = await statements(named);
      const viaRelation = await statements(related);
      expect(viaRelation.found).toContain(expected);
      expect(viaRelation.n - plain.n, `${related}: ${viaRelation.n} statements, ${named}: ${plain.n}`).toBe(1);
    }
  });
});
