/**
 * Under PLATFORM_LIMITS=free (the "free-plan" vitest project, two shards) the steps that scale with
 * data are sized by Workers Free's 10 ms of CPU per invocation as well as by its 50 D1 queries: an
 * export part, an import request, a lifecycle call and a shard move's step each take at most
 * `cpuUnits` of their units (platform-limits.ts, from the measured µs per unit), far fewer than D1's
 * allowance alone would let them take.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import type { Scope } from "../../src/memory/types";
import { cpuUnits } from "../../src/platform-limits/platform-limits";
import { ownerSums } from "../../src/shards/d1-owner-rows";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import type { MoveProgress } from "../../src/shards/move-account";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { exportAll } from "../helpers/export-parts";
import { ok, ownerOf, seedFacts, stubOf } from "../helpers/lifecycle";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

const limits = loadConfig(env).PLATFORM_LIMITS;
/** The free-plan project's ADMIN_SECRET (vitest.config.ts). */
const ADMIN_SECRET = "test-admin-secret-0123456789abcdef";

async function ownerWith(n: number): Promise<Scope> {
  const owner = ownerOf(uniqueUser());
  await seedFacts(owner, n);
  return owner;
}

const importLines = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ content: `imported fact ${i}: owns a lamp ${i * 31}` })).join(
    "\n",
  );

describe("Workers Free's CPU time sizes the steps", () => {
  it("runs under free: 10 ms of CPU per invocation, and the step sizes follow from it", () => {
    expect(limits).toMatchObject({ plan: "free", cpu_ms_per_invocation: 10, d1_queries_per_invocation: 50 });
    // Far below what D1's 50 queries allow: a part of 10,000 memories, a request of 5,000 lines.
    expect(cpuUnits(limits, "exportMemory")).toBeLessThan(1_000);
    expect(cpuUnits(limits, "importLine")).toBeLessThan(100);
    expect(cpuUnits(limits, "lifecycleRow")).toBeLessThan(100);
    // A shard move's step: D1's 50 queries alone let one read 2,600–7,400 rows (npm run bench:cpu).
    expect(cpuUnits(limits, "moveRow")).toBeLessThan(1_000);
  });

  it("an export comes in parts of at most the memories one invocation's CPU carries, and joins to the whole", async () => {
    const perPart = cpuUnits(limits, "exportMemory");
    const n = perPart * 3 + 5;
    const owner = await ownerWith(n);
    const { key } = await createKey({ account: owner.accountId, user: owner.userId });
    const { parts, lines } = await exportAll(key);
    expect(parts).toBeGreaterThanOrEqual(4);
    const ids = lines.filter((l) => l.type === "memory").map((l) => l.id);
    expect(new Set(ids).size).toBe(n);
    expect(lines.at(-1)).toMatchObject({ type: "end", memories: n });
    // Every part but the last is full: at most perPart memories, none more.
    const res = await exports.default.fetch("http://x/v1/export", { headers: { authorization: `Bearer ${key}` } });
    const first = (await res.text()).trimEnd().split("\n");
    expect(first.filter((l) => l.startsWith('{"type":"memory"'))).toHaveLength(perPart);
  });

  it("an import request of more lines than one invocation's CPU carries is refused before anything is written", async () => {
    const max = cpuUnits(limits, "importLine");
    const user = uniqueUser();
    const { key } = await createKey({ user });
    const post = (n: number, dry = false) =>
      exports.default.fetch(`http://x/v1/import${dry ? "?dry_run=true" : ""}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body: importLines(n),
      });
    for (const dry of [true, false]) {
      const refused = await post(max + 1, dry);
      expect(refused.status).toBe(413);
      const body = (await refused.json()) as { error: string; field: string; message: string };
      expect(body).toMatchObject({ error: "limit_exceeded", field: "cpu_ms_per_invocation" });
      expect(body.message).toContain(`at most ${max} lines`);
    }
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM memories WHERE user_id = ?")
      .bind(user)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
    const accepted = await post(max);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ imported: max });
  });

  it("the import cap counts every item a request carries: history events, graph entities and relations, not only lines", async () => {
    const max = cpuUnits(limits, "importLine");
    const user = uniqueUser();
    const { key } = await createKey({ user });
    const post = (body: string, format?: string) =>
      exports.default.fetch(`http://x/v1/import?dry_run=true${format ? `&format=${format}` : ""}`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body,
      });
    const refusedFor = async (res: Response, what: string) => {
      expect(res.status, what).toBe(413);
      const body = (await res.json()) as { error: string; field: string; message: string };
      expect(body, what).toMatchObject({ error: "limit_exceeded", field: "cpu_ms_per_invocation" });
      expect(body.message, what).toContain(`at most ${max} items`);
    };
    // Three lines carrying max history events between them.
    const event = (i: number) => ({
      op: "update",
      at: "2024-01-01T00:00:00Z",
      actor: "system",
      before: { content: `v${i}` },
      after: { content: `v${i + 1}` },
    });
    const withHistory = Array.from({ length: 3 }, (_, l) =>
      JSON.stringify({
        content: `a fact with a long past ${l}`,
        external_id: `h${l}`,
        history: Array.from({ length: Math.ceil(max / 3) }, (_, i) => event(i)),
      }),
    ).join("\n");
    await refusedFor(await post(withHistory), "history events");
    // The MCP memory server's graph: entities with no observation are no memory lines, yet each is stored.
    const graph = Array.from({ length: max + 1 }, (_, i) =>
      JSON.stringify({ type: "entity", name: `Entity ${i}`, entityType: "person", observations: [] }),
    ).join("\n");
    await refusedFor(await post(graph, "mcp-memory"), "graph entities");
    // Within the cap, both pass.
    const few = Array.from({ length: 2 }, (_, l) =>
      JSON.stringify({ content: `a fact with a short past ${l}`, history: [event(0), event(1)] }),
    ).join("\n");
    expect((await post(few)).status).toBe(200);
  });

  it("a summary too large for one invocation says which facts it stored, and a retry stores the rest without duplicates", async () => {
    const { key } = await createKey({ user: uniqueUser("free-sum") });
    const client = await connect(key);
    const facts = [
      "I live in Lisbon",
      "I have a cat named Miso",
      "My sister Ana is a dentist",
      "I work at Acme as a welder",
      "I am allergic to shellfish",
      "My favorite color is teal",
      "I play the cello on Sundays",
      "I drive a blue Volvo",
      "My brother Tomas lives in Porto",
      "I was born in 1988",
      "I speak Portuguese and German",
      "I run five kilometres every morning",
      "My daughter Rita is seven",
      "I collect vintage maps",
      "I grow tomatoes on my balcony",
      "My dentist is Dr Silva",
      "I read science fiction before bed",
      "I take the 728 bus to work",
      "My partner Joao is a chef",
      "I keep bees in the garden",
    ];
    const transcript = facts.map((f) => `user: ${f}.`).join("\n");
    type Outcome = { content: string; status: string; id: string | null };
    type Answer = { extracted: number; outcomes: Outcome[]; unsaved?: string[] };
    const stored = async () =>
      (
        (await callTool(client, "list_memories", { limit: 100 })).structuredContent as {
          memories: { id: string; content: string }[];
        }
      ).memories;

    const first = await callTool(client, "summarize_conversation", { transcript, source: "long-chat" });
    const text = textOf(first);
    const answer = first.structuredContent as Answer | undefined;
    const kept = await stored();
    expect(kept.length, text).toBeGreaterThan(0);
    expect(kept.length, text).toBeLessThan(facts.length);
    // Never "nothing was written" when something was: the answer names every stored fact and what is left.
    expect(first.isError, text).toBeFalsy();
    expect(text).not.toMatch(/nothing of this step was written/);
    // The rules find (nearly) every stated fact; each is either saved, with its id, or listed as unsaved.
    const found = answer!.extracted;
    expect(found).toBeGreaterThanOrEqual(facts.length - 2);
    const saved = answer!.outcomes.filter((o) => o.id !== null);
    expect([...new Set(saved.map((o) => o.id))].sort()).toEqual((await stored()).map((m) => m.id).sort());
    expect(answer!.unsaved!.length).toBe(found - answer!.outcomes.length);
    expect(answer!.unsaved!.length).toBeGreaterThan(0);
    expect(text).toContain(`Saved ${saved.length} of ${found} facts`);
    for (const u of answer!.unsaved!) expect(text).toContain(JSON.stringify(u));

    // Retrying the same call goes on where the first stopped, never storing a fact twice.
    let last: Answer = answer!;
    for (let rounds = 0; last.unsaved!.length > 0 && rounds < 10; rounds++) {
      const again = await callTool(client, "summarize_conversation", { transcript, source: "long-chat" });
      expect(again.isError, textOf(again)).toBeFalsy();
      const next = again.structuredContent as Answer;
      expect(next.unsaved!.length, textOf(again)).toBeLessThan(last.unsaved!.length);
      last = next;
    }
    expect(last.unsaved).toEqual([]);
    const all = await stored();
    expect(new Set(all.map((m) => m.content)).size).toBe(all.length);
    expect(new Set(last.outcomes.map((o) => o.id)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(found - 2);
  });

  it("a lifecycle call changes at most the rows one invocation's CPU carries; the next call goes on", async () => {
    const rows = cpuUnits(limits, "lifecycleRow");
    const owner = await ownerWith(rows * 2 + 3);
    const request = {
      now: Date.now(),
      jobs: ["repair" as const],
      budget: { maxMs: 20_000, maxRows: 2_000 },
      policy: { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 },
    };
    const first = await ok(stubOf(owner).maintain(owner, request));
    expect(first.jobs[0].processed).toBeGreaterThan(0);
    expect(first.jobs[0].processed).toBeLessThanOrEqual(rows);
    expect(first.complete).toBe(false);
    const second = await ok(stubOf(owner).maintain(owner, request));
    expect(second.jobs[0].processed).toBeGreaterThan(0);
    expect(second.jobs[0].processed).toBeLessThanOrEqual(rows);
  });

  it("a shard move goes in steps of at most the rows one object call's CPU carries, and moves every memory and entity", async () => {
    const maxRows = cpuUnits(limits, "moveRow");
    const account = `acct-free-${uniqueUser()}`;
    await new D1ShardDirectory(env.DB).place(account, "DB", Date.now());
    const owner: Scope = { accountId: account, namespace: "user", userId: uniqueUser(), actor: "test" };
    await ok(stubOf(owner).save(owner, { content: "My sister Ana lives in Bergen" }));
    await ok(stubOf(owner).save(owner, { content: "Ana works at Equinor Group as an engineer" }));
    await seedFacts(owner, 600);
    const before = await ownerCounts(env.DB, owner);
    expect(before).toMatchObject({ memories: 602 });
    expect(before.entities).toBeGreaterThan(0);
    const sums = await ownerSums(env.DB, owner);
    const rows = Object.values(sums).reduce((n, t) => n + t.rows, 0);
    const steps = await moveAll(account, "DB_SHARD_1");
    const read = steps.map((s) => s.owners.reduce((n, o) => n + o.read.copied + o.read.verified, 0));
    // Every row is read twice (copied, then verified), never more than maxRows a step: the CPU cap binds, not D1.
    expect(read.reduce((a, b) => a + b, 0)).toBe(rows * 2);
    expect(Math.max(...read)).toBe(maxRows);
    expect(steps.length).toBeGreaterThanOrEqual(Math.ceil((rows * 2) / maxRows));
    expect(steps.at(-1)).toMatchObject({ done: true });
    expect(await ownerCounts(env.DB_SHARD_1!, owner)).toEqual(before);
    expect(await ownerSums(env.DB_SHARD_1!, owner)).toEqual(sums);
    expect(await ownerCounts(env.DB, owner)).toEqual({ memories: 0, entities: 0 });
    // Served from the target: the object reads its memories and entities there.
    expect((await ok(stubOf(owner).list(owner, { limit: 5 }))).memories).toHaveLength(5);
    expect((await ok(stubOf(owner).describeEntity(owner, "sister")))?.memoryIds).toHaveLength(2);
  }, 120_000);
});

async function ownerCounts(db: D1Database, o: Scope): Promise<{ memories: number; entities: number }> {
  const count = (table: string) =>
    db
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ? AND namespace = ? AND user_id = ?`)
      .bind(o.accountId, o.namespace, o.userId)
      .first<number>("n");
  return { memories: (await count("memories")) ?? 0, entities: (await count("entities")) ?? 0 };
}

/** The move through the admin route, step by step as `npm run shards -- move` calls it. */
async function moveAll(account: string, to: string): Promise<MoveProgress[]> {
  const steps: MoveProgress[] = [];
  while (steps.length < 200) {
    const res = await exports.default.fetch("http://x/admin/shards/move", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_SECRET}`, "content-type": "application/json" },
      body: JSON.stringify({ account, to, owners_per_call: 1 }),
    });
    expect(res.status).toBe(200);
    const step = (await res.json()) as MoveProgress;
    steps.push(step);
    if (step.done) return steps;
  }
  throw new Error("the move did not finish in 200 steps");
}
