/**
 * Recall's supersede chain on the real Durable Object and D1: the successor a chain leads to is shown
 * only to a caller who may see it. A link from a shared memory to an agent's private one (an import
 * can carry one) answers that agent with it and every other agent with nothing.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { uniqueUser } from "../helpers/api-keys";

function stubFor(userId: string) {
  return env.USER_MEMORY.get(
    env.USER_MEMORY.idFromName(ownerAddress({ accountId: "default", namespace: "user", userId })),
  );
}

describe("the supersede chain keeps agents apart", () => {
  it("a private successor answers its own agent only", async () => {
    const userId = uniqueUser("chain");
    const stub = stubFor(userId);
    const shared = { accountId: "default", namespace: "user", userId, actor: "test" };
    const agentA = { ...shared, agentId: "agent-a" };
    const agentB = { ...shared, agentId: "agent-b" };
    for (const content of ["My sister Ana is a nurse", "I like spicy food", "I play chess on Fridays"])
      expect((await stub.save(shared, { content })).ok).toBe(true);
    const old = await stub.save(shared, { content: "I live in Lisbon" });
    const next = await stub.save(agentA, { content: "I moved to Munich last month" });
    if (!old.ok || !next.ok) throw new Error("save failed");
    // A private memory never supersedes a shared one on save: the link comes in as an import would bring it.
    expect(next.value.supersededIds).toEqual([]);
    await env.DB.prepare("UPDATE memories SET status = 'superseded', superseded_by = ? WHERE id = ? AND user_id = ?")
      .bind(next.value.id, old.value.id, userId)
      .run();
    const seen = async (scope: typeof shared) => {
      const r = await stub.recall(scope, { query: "where do I live?", limit: 5 });
      if (!r.ok) throw new Error(r.error.message);
      return r.value.results.map((c) => [c.memory.content, c.update?.replacedId ?? null]);
    };
    expect(await seen(agentA)).toContainEqual(["I moved to Munich last month", old.value.id]);
    for (const other of [agentB, shared]) {
      const results = await seen(other);
      expect(results.map(([content]) => content)).not.toContain("I moved to Munich last month");
      expect(results.map(([content]) => content)).not.toContain("I live in Lisbon");
    }
  });
});
