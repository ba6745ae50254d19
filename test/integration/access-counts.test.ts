/**
 * Access counts belong to the service that showed the memories: each MemoryService owns its recorder
 * (no module state shared through the repository), flushAccess() writes what it gathered, maintain()
 * writes it before its jobs read it, and a recall that counts access itself (touch: false) records none.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { lifecyclePolicy, loadConfig } from "../../src/config";
import type { CursorStore } from "../../src/memory/ports";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

const scopeOf = (userId: string) => ({ accountId: "default", namespace: "user", userId, actor: "test" });

async function accessCount(id: string): Promise<number> {
  const r = await env.DB.prepare("SELECT access_count AS n FROM memories WHERE id = ?").bind(id).first<{ n: number }>();
  return r?.n ?? -1;
}

const noCursors: CursorStore = { get: async () => null, put: async () => {} };

/** Two services over one repository (as a DO rebuilt after eviction would hold), each with its own recorder. */
function twoServices() {
  const repo = new D1MemoryRepo(env.DB);
  const index = () => new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex);
  return [testService({ repo, index: index() }), testService({ repo, index: index() })] as const;
}

async function savedAndRecalled(userId: string) {
  const [a, b] = twoServices();
  const scope = scopeOf(userId);
  const saved = await a.save(scope, { content: "I drink green tea every morning" });
  const id = saved.id ?? "";
  const found = await a.recall(scope, { query: "green tea" }, 5);
  expect(found.results.map((r) => r.memory.id)).toContain(id);
  return { a, b, scope, id };
}

describe("access counts owned by the service", () => {
  it("are written by the service that recalled, not by another over the same repository", async () => {
    const { a, b, id } = await savedAndRecalled(uniqueUser("access"));
    await b.flushAccess();
    expect(await accessCount(id)).toBe(0);
    await a.flushAccess();
    expect(await accessCount(id)).toBe(1);
  });

  it("are written before maintenance runs its jobs", async () => {
    const { a, scope, id } = await savedAndRecalled(uniqueUser("access-maintain"));
    const config = loadConfig(env);
    await a.maintain(
      scope,
      { now: Date.now(), jobs: [], policy: lifecyclePolicy(config), budget: { maxMs: 5_000, maxRows: 100 } },
      noCursors,
    );
    expect(await accessCount(id)).toBe(1);
  });

  it("are not recorded by a recall whose caller counts access itself", async () => {
    const [a] = twoServices();
    const scope = scopeOf(uniqueUser("access-untouched"));
    const saved = await a.save(scope, { content: "My sister lives in Lyon" });
    await a.recall(scope, { query: "sister Lyon" }, 5, { touch: false });
    await a.flushAccess();
    expect(await accessCount(saved.id ?? "")).toBe(0);
    a.touch(scope, [saved.id ?? ""]);
    await a.flushAccess();
    expect(await accessCount(saved.id ?? "")).toBe(1);
  });
});
