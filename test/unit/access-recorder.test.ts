import { describe, expect, it } from "vitest";
import type { MemoryRepo } from "../../src/memory/ports";
import { AccessRecorder } from "../../src/memory/recall/access-recorder";

function recordingRepo() {
  const calls: { user: string; ids: string[]; at: number }[] = [];
  const repo = {
    touch: async (owner: { userId: string }, ids: string[], at: number) =>
      void calls.push({ user: owner.userId, ids: [...ids].sort(), at }),
  };
  return { calls, repo: repo as unknown as MemoryRepo };
}
const log = { warn: () => {}, error: () => {} };

describe("AccessRecorder", () => {
  it("writes a burst of recalls in one touch per round, counting each showing", async () => {
    const { calls, repo } = recordingRepo();
    const recorder = new AccessRecorder(repo, log, 60_000);
    const alice = { accountId: "a", namespace: "user", userId: "alice" };
    recorder.record(alice, ["m1", "m2"], 100);
    recorder.record(alice, ["m2", "m3"], 250);
    recorder.record({ accountId: "a", namespace: "user", userId: "bob" }, ["b1"], 120);
    expect(calls).toEqual([]);
    await recorder.flush();
    expect(calls).toEqual([
      { user: "alice", ids: ["m1", "m2", "m3"], at: 250 },
      { user: "alice", ids: ["m2"], at: 250 },
      { user: "bob", ids: ["b1"], at: 120 },
    ]);
    await recorder.flush();
    expect(calls).toHaveLength(3);
  });

  it("flushes by itself shortly after the first recall", async () => {
    const { calls, repo } = recordingRepo();
    const recorder = new AccessRecorder(repo, log, 10);
    recorder.record({ accountId: "a", namespace: "user", userId: "u" }, ["m1"], 1);
    for (let i = 0; i < 50 && calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(calls).toEqual([{ user: "u", ids: ["m1"], at: 1 }]);
  });
});
