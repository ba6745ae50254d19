/**
 * recallInSession on the real test D1 with session counters behind their port: the stage comes
 * from the store, an explicit limit or progressive injection turned off leaves it untouched, and
 * idle sessions are forgotten.
 */
import { describe, expect, it } from "vitest";
import { recallInSession } from "../../src/memory/recall/session-recall";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { MemorySessionCounters, testService } from "../helpers/test-service";

const RESET = 300_000;

function setup(progressive = { enabled: true, resetMs: RESET }) {
  let now = Date.parse("2026-11-30T12:00:00Z");
  const sessions = new MemorySessionCounters();
  const svc = testService({
    index: new VectorizeVectorIndex(new FakeVectorize() as unknown as VectorizeIndex),
    sessions,
    clock: { now: () => now },
  });
  svc.deps.settings.progressive = { firstCallTokens: 200, ...progressive };
  const scope = { accountId: "default", namespace: "user", userId: uniqueUser(), actor: "t", sessionKey: "s1" };
  return { svc, sessions, scope, advance: (ms: number) => (now += ms) };
}

describe("recallInSession", () => {
  it("counts the calls of a session in the store: stage 1, 2, then 3", async () => {
    const { svc, sessions, scope } = setup();
    await svc.save(scope, { content: "Lives in Shanghai and cycles to work every day" });
    const stages = [];
    for (let i = 0; i < 4; i++) stages.push((await recallInSession(svc, scope, { query: "how do I commute" })).stage);
    expect(stages).toEqual([1, 2, 3, 3]);
    expect(sessions.counters.get("s1")?.calls).toBe(3);
  });

  it("an explicit limit, or progressive injection off, is a plain search that counts no call", async () => {
    const { svc, sessions, scope } = setup();
    const r = await recallInSession(svc, scope, { query: "anything", limit: 3 });
    expect(r.stage).toBe(3);
    expect(sessions.counters.size).toBe(0);
    const off = setup({ enabled: false, resetMs: RESET });
    expect((await recallInSession(off.svc, off.scope, { query: "anything" })).stage).toBe(3);
    expect(off.sessions.counters.size).toBe(0);
  });

  it("a session idle for the reset window starts again at stage 1 and others idle as long are forgotten", async () => {
    const { svc, sessions, scope, advance } = setup();
    await recallInSession(svc, { ...scope, sessionKey: "old" }, { query: "x" });
    await recallInSession(svc, scope, { query: "x" });
    advance(RESET);
    expect((await recallInSession(svc, scope, { query: "x" })).stage).toBe(1);
    expect([...sessions.counters.keys()]).toEqual(["s1"]);
  });
});
