import { describe, expect, it } from "vitest";
import {
  type BatchResult,
  Budget,
  type JobContext,
  type LifecycleJob,
  runJob,
} from "../../src/memory/lifecycle/batch-runner";
import type { CursorStore } from "../../src/memory/ports";
import { SerialQueue } from "../../src/memory/serial-queue";
import type { MemoryDeps } from "../../src/memory/service-deps";

class MapCursors implements CursorStore {
  readonly map = new Map<string, string>();
  async get(key: string) {
    return this.map.get(key) ?? null;
  }
  async put(key: string, cursor: string | null) {
    if (cursor === null) this.map.delete(key);
    else this.map.set(key, cursor);
  }
}

const warnings: string[] = [];
function ctx(full = false): JobContext {
  const deps = { log: { warn: (m: string) => warnings.push(m), error: () => {} } } as unknown as MemoryDeps;
  return {
    deps,
    owner: { accountId: "a", namespace: "user", userId: "u" },
    actor: "test",
    now: 0,
    full,
    memo: new Map(),
    policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 10 },
  };
}

/** A job over `total` numbered rows that walks a numeric cursor; `failAt` throws on that batch. */
function countingJob(total: number, seen: number[], failAt?: number, haltAt?: number): LifecycleJob {
  let batches = 0;
  return {
    name: "repair",
    async batch(_ctx, cursor, limit): Promise<BatchResult> {
      batches++;
      if (batches === failAt) throw new Error("boom");
      const start = Number(cursor ?? 0);
      const rows = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
      if (batches === haltAt)
        return { processed: rows.length, changed: 0, cursor: null, done: false, halt: "index down" };
      seen.push(...rows);
      const end = start + rows.length;
      return { processed: rows.length, changed: rows.length, cursor: String(end), done: end >= total };
    },
  };
}

const roomy = () => new Budget({ maxMs: 60_000, maxRows: 10_000 });

describe("lifecycle batch runner", () => {
  it("runs batches until done and clears the cursor", async () => {
    const cursors = new MapCursors();
    const seen: number[] = [];
    const r = await runJob(countingJob(25, seen), ctx(), cursors, roomy());
    expect(r).toMatchObject({ job: "repair", processed: 25, changed: 25, batches: 3, complete: true });
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(cursors.map.size).toBe(0);
  });

  it("stops at the row budget and resumes from the saved cursor without losing or repeating rows", async () => {
    const cursors = new MapCursors();
    const seen: number[] = [];
    const first = await runJob(countingJob(25, seen), ctx(), cursors, new Budget({ maxMs: 60_000, maxRows: 12 }));
    expect(first).toMatchObject({ processed: 12, complete: false });
    expect(cursors.map.get("lifecycle:repair")).toBe("12");
    const second = await runJob(countingJob(25, seen), ctx(), cursors, roomy());
    expect(second).toMatchObject({ processed: 13, complete: true });
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it("stops before a batch that would overrun the time budget", async () => {
    let clock = 0;
    const budget = new Budget({ maxMs: 1000, maxRows: 10_000 }, () => clock);
    const slow: LifecycleJob = {
      name: "decay",
      async batch(_c, cursor) {
        clock += 400;
        const n = Number(cursor ?? 0) + 1;
        return { processed: 1, changed: 1, cursor: String(n), done: false };
      },
    };
    const r = await runJob(slow, ctx(), new MapCursors(), budget);
    // 0→400→800: a third 400 ms batch would end at 1200, past the 1000 ms deadline.
    expect(r).toMatchObject({ batches: 2, complete: false });
  });

  it("stops before a batch that would exceed the repo-call budget (D1's per-invocation query cap)", async () => {
    let calls = 0;
    const budget = new Budget({ maxMs: 60_000, maxRows: 10_000, maxRepoCalls: 100 }, Date.now, () => calls);
    const chatty: LifecycleJob = {
      name: "consolidate",
      async batch(_c, cursor) {
        calls += 30;
        return { processed: 1, changed: 0, cursor: String(Number(cursor ?? 0) + 1), done: false };
      },
    };
    const r = await runJob(chatty, ctx(), new MapCursors(), budget);
    // 0, 30, 60 calls before each batch; at 90 another 30-call batch would pass 100.
    expect(r).toMatchObject({ batches: 3, complete: false });
    expect(calls).toBe(90);
  });

  it("a failing batch keeps the previous cursor, so the next run redoes it", async () => {
    const cursors = new MapCursors();
    const seen: number[] = [];
    const failed = await runJob(countingJob(30, seen, 2), ctx(), cursors, roomy());
    expect(failed).toMatchObject({ processed: 10, complete: false, error: "Error: boom" });
    expect(cursors.map.get("lifecycle:repair")).toBe("10");
    expect(warnings.at(-1)).toMatch(/resumes from the saved cursor/);
    const halted = await runJob(countingJob(30, seen, undefined, 1), ctx(), cursors, roomy());
    expect(halted).toMatchObject({ complete: false, error: "index down" });
    expect(cursors.map.get("lifecycle:repair")).toBe("10");
    await runJob(countingJob(30, seen), ctx(), cursors, roomy());
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("keeps full passes on their own cursor", async () => {
    const cursors = new MapCursors();
    await runJob(countingJob(25, []), ctx(true), cursors, new Budget({ maxMs: 60_000, maxRows: 10 }));
    expect([...cursors.map.keys()]).toEqual(["lifecycle:repair:full"]);
  });
});

describe("maintenance queue", () => {
  it("runs one request at a time, in order, and a failure does not block the next", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue.run(task("cron", 20, true)),
      queue.run(task("tool", 1)),
      queue.run(task("cron2", 1)),
    ]);
    expect(log).toEqual(["start cron", "end cron", "start tool", "end tool", "start cron2", "end cron2"]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
  });
});
