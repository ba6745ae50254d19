/**
 * summarize_conversation within one invocation's limits, on the real D1: when a platform limit
 * refuses a fact's write (the invocation meter said there was room, the statement was refused before
 * it went out), the facts saved so far are answered as saved and the rest as unsaved, never an error
 * claiming nothing was written; the same call again saves the rest and none twice.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import type { MemoryRepo } from "../../src/memory/ports";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { testService } from "../helpers/test-service";

/** The real repository, whose writes a platform limit refuses once `allowed` of them went out. */
function limitedRepo(allowed: { writes: number }): MemoryRepo {
  const repo = new D1MemoryRepo(env.DB);
  return new Proxy(repo, {
    get(target, prop, receiver) {
      if (prop === "write")
        return async (...args: Parameters<MemoryRepo["write"]>) => {
          if (allowed.writes <= 0)
            throw new MemoryError("limit_exceeded", "platform limit d1_queries_per_invocation (50, Workers Free): …");
          allowed.writes--;
          return target.write(...args);
        };
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const transcript = [
  "I live in Lisbon",
  "I have a cat named Miso",
  "I play the cello on Sundays",
  "I drive a blue Volvo",
  "I collect vintage maps",
]
  .map((f) => `user: ${f}.`)
  .join("\n");

describe("summarize_conversation past a platform limit", () => {
  it("answers the facts it saved and those it could not, and a retry saves the rest once", async () => {
    const scope = { accountId: "default", namespace: "user", userId: uniqueUser("sum-limit"), actor: "test" };
    const allowed = { writes: 2 };
    const svc = testService({
      index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
      repo: limitedRepo(allowed),
      invocation: { callsLeft: () => 1000 },
    });
    const first = await svc.summarize(scope, { transcript, source: "chat-limit" });
    const n = first.extracted;
    expect(n).toBeGreaterThanOrEqual(4);
    expect(first.outcomes.map((o) => o.status)).toEqual(["created", "created"]);
    // The rest, in transcript order, as they would be stored.
    expect(first.unsaved).toHaveLength(n - 2);
    for (const u of first.unsaved) expect(transcript).toContain(u.replace(/\.$/, ""));

    allowed.writes = 100;
    const again = await svc.summarize(scope, { transcript, source: "chat-limit" });
    expect(again.unsaved).toEqual([]);
    expect(again.outcomes.slice(0, 2).map((o) => [o.status, o.reason])).toEqual([
      ["merged", "already saved from this conversation"],
      ["merged", "already saved from this conversation"],
    ]);
    expect(again.outcomes.slice(0, 2).map((o) => o.id)).toEqual(first.outcomes.map((o) => o.id));
    const rows = await env.DB.prepare("SELECT content FROM memories WHERE user_id = ? AND status = 'active'")
      .bind(scope.userId)
      .all<{ content: string }>();
    const contents = rows.results.map((r) => r.content);
    expect(contents).toHaveLength(n);
    expect(new Set(contents).size).toBe(n);
  });
});
