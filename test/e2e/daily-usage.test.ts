/**
 * memory_stats' daily usage through the MCP client, under PLATFORM_LIMITS=free (the "free-plan" vitest
 * project): the D1 rows this user's calls read and wrote today, beside Workers Free's daily allowances
 * for the account, and — once Workers AI refuses embeddings because the account's daily free allocation
 * is spent — the refused calls counted and named, while saves are still stored (indexed later) and
 * recall still answers from keywords. The embedder is Workers AI over a fake binding (workers-types'
 * shape) metered as the object meters its own AI binding (platform-limits/workers-ai-usage.ts).
 */
import { describe, expect, it } from "vitest";
import type { Embedder } from "../../src/memory/ports";
import { FREE_DAILY_ALLOWANCES } from "../../src/platform-limits/daily-usage";
import { meteredAi } from "../../src/platform-limits/workers-ai-usage";
import { WorkersAiEmbedder } from "../../src/providers/workers-ai-embedder";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { FakeEmbeddingAi } from "../helpers/fake-ai";
import { overrideDeps, ownerOf } from "../helpers/lifecycle";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

/** Workers AI's words for the spent allocation (errors page, "Account limited", 3036). */
const ALLOCATION_SPENT =
  "3036: You have used up your daily free allocation of 10,000 neurons. Please upgrade to Cloudflare's Workers Paid plan if you would like to continue usage.";

type Line = { used: number; allowance: number | null; share: number | null };
type Daily = {
  day: string;
  plan: string;
  allowance_scope: string;
  resets_at: string;
  d1_rows_read: Line;
  d1_rows_written: Line;
  workers_ai: {
    embeddings: number;
    failures: number;
    rate_limited: number;
    daily_allocation_refused: number;
    last_limit_at: string | null;
    neurons_allowance: number | null;
  };
};

/** The object's embedder while `spent.on` is false; Workers AI refusing for the spent allocation while it is true. */
function allocationEmbedder(like: Embedder, spent: { on: boolean }): Embedder {
  const refusing = new WorkersAiEmbedder(
    meteredAi(
      new FakeEmbeddingAi(() => {
        throw new Error(ALLOCATION_SPENT);
      }),
    ),
    "@cf/baai/bge-m3",
    like.dimensions,
    50,
  );
  return {
    model: like.model,
    dimensions: like.dimensions,
    embed: (texts) => (spent.on ? refusing.embed(texts) : like.embed(texts)),
  };
}

describe("memory_stats' daily usage on Workers Free", () => {
  it("shows today's D1 rows beside Free's allowance, then names the spent Workers AI allocation", async () => {
    const userId = uniqueUser("daily-usage");
    const { key } = await createKey({ user: userId });
    const client = await connect(key);
    for (const content of [
      "I moved from Berlin to Lisbon in March",
      "My brother Jonas is starting a new job in Porto next month",
      "我妹妹下个月开始在杭州上班",
    ])
      expect((await callTool(client, "save_memory", { content })).isError).toBeFalsy();

    const first = await callTool(client, "memory_stats", {});
    expect(first.isError).toBeFalsy();
    const daily = (first.structuredContent as { daily_usage: Daily }).daily_usage;
    expect(daily).toMatchObject({
      plan: "free",
      allowance_scope: "account",
      day: new Date().toISOString().slice(0, 10),
    });
    expect(daily.d1_rows_written.used).toBeGreaterThan(0);
    expect(daily.d1_rows_read.used).toBeGreaterThan(0);
    expect(daily.d1_rows_written.allowance).toBe(FREE_DAILY_ALLOWANCES.d1_rows_written);
    expect(daily.d1_rows_read.allowance).toBe(FREE_DAILY_ALLOWANCES.d1_rows_read);
    expect(daily.d1_rows_written.share).toBe(Math.round((daily.d1_rows_written.used / 100_000) * 1000) / 1000);
    expect(daily.workers_ai).toMatchObject({ daily_allocation_refused: 0, neurons_allowance: 10_000 });
    const text = textOf(first);
    expect(text).toContain(
      `this memory read ${daily.d1_rows_read.used.toLocaleString("en")} of Workers Free's 5,000,000 D1 rows a day`,
    );
    expect(text).not.toContain("daily free allocation");

    // Each call adds to the day: the stats call itself read rows.
    const again = ((await callTool(client, "memory_stats", {})).structuredContent as { daily_usage: Daily })
      .daily_usage;
    expect(again.d1_rows_read.used).toBeGreaterThan(daily.d1_rows_read.used);

    const spent = { on: false };
    await overrideDeps(ownerOf(userId), (deps) => ({ embedder: allocationEmbedder(deps.embedder, spent) }));
    spent.on = true;
    const saved = await callTool(client, "save_memory", { content: "Jonas now lives in Porto, not Lisbon" });
    expect(saved.isError).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({ status: "created", indexed_later: true });
    const recalled = await callTool(client, "recall_memory", {
      query: "Where does my brother Jonas live now?",
      limit: 5,
    });
    expect(recalled.isError).toBeFalsy();
    expect(textOf(recalled)).toContain("Porto");

    const after = await callTool(client, "memory_stats", {});
    const ai = (after.structuredContent as { daily_usage: Daily }).daily_usage.workers_ai;
    expect(ai.daily_allocation_refused).toBeGreaterThanOrEqual(2);
    expect(ai.failures).toBe(ai.daily_allocation_refused);
    expect(ai.embeddings).toBe(ai.daily_allocation_refused);
    expect(ai.rate_limited).toBe(0);
    expect(Date.parse(ai.last_limit_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
    expect(textOf(after)).toContain(
      "Workers AI's daily free allocation (10,000 neurons for the account) was spent today",
    );
    expect(textOf(after)).toContain("saves are indexed later and recall answers from keywords");
  });

  it("a bad argument comes back naming the field", async () => {
    const { key } = await createKey({ user: uniqueUser("daily-usage-bad") });
    const client = await connect(key);
    const bad = await callTool(client, "memory_stats", { agent: 42 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain("agent");
  });
});
