/**
 * memory_stats' daily usage through the MCP client, under PLATFORM_LIMITS=free (the "free-plan" vitest
 * project): the D1 rows this user's calls read and wrote today, beside Workers Free's daily allowances
 * for the account, and — once Workers AI refuses embeddings because the account's daily free allocation
 * is spent — the refused calls counted and named, while saves are still stored (indexed later) and
 * recall still answers from keywords. The embedder is Workers AI over a fake binding (workers-types'
 * shape) metered as the object meters its own AI binding (platform-limits/workers-ai-usage.ts).
 */
import { exports } from "cloudflare:workers";
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

type Daily = {
  day: string;
  used: Record<string, number>;
  last_limit_at: string | null;
  free_allowances: Record<string, number>;
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
    expect(daily.day).toBe(new Date().toISOString().slice(0, 10));
    expect(daily.used.d1_rows_written).toBeGreaterThan(0);
    expect(daily.used.d1_rows_read).toBeGreaterThan(0);
    expect(daily.free_allowances).toEqual({
      d1_rows_read: FREE_DAILY_ALLOWANCES.d1_rows_read,
      d1_rows_written: FREE_DAILY_ALLOWANCES.d1_rows_written,
      ai_neurons: 10_000,
    });
    expect(daily.used.ai_allocation_spent).toBe(0);
    const text = textOf(first);
    expect(text).toContain(
      `this memory read ${daily.used.d1_rows_read.toLocaleString("en")} of Workers Free's 5,000,000 D1 rows a day`,
    );
    expect(text).not.toContain("daily free allocation");

    // Each call adds to the day: the stats call itself read rows.
    const again = ((await callTool(client, "memory_stats", {})).structuredContent as { daily_usage: Daily })
      .daily_usage;
    expect(again.used.d1_rows_read).toBeGreaterThan(daily.used.d1_rows_read);

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
    const today = (after.structuredContent as { daily_usage: Daily }).daily_usage;
    const ai = today.used;
    expect(ai.ai_allocation_spent).toBeGreaterThanOrEqual(2);
    expect(ai.ai_failures).toBe(ai.ai_allocation_spent);
    expect(ai.ai_embeddings).toBe(ai.ai_allocation_spent);
    expect(ai.ai_rate_limited).toBe(0);
    expect(Date.parse(today.last_limit_at ?? "")).toBeGreaterThan(Date.now() - 60_000);
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

  it("/health gives Workers Free's daily allowances and their reset, and says the account's usage is not visible", async () => {
    const res = await exports.default.fetch(new Request("http://localhost/health", { headers: { host: "localhost" } }));
    const body = (await res.json()) as { daily_limits: Record<string, unknown> };
    expect(body.daily_limits).toMatchObject({
      plan: "free",
      allowances: FREE_DAILY_ALLOWANCES,
      account_usage_today: null,
      account_usage_source: expect.stringContaining("not visible to the Worker"),
    });
    const reset = Date.parse(body.daily_limits.resets_at as string);
    expect(new Date(reset).toISOString()).toMatch(/T00:00:00\.000Z$/);
    expect(reset - Date.now()).toBeGreaterThan(0);
    expect(reset - Date.now()).toBeLessThanOrEqual(86_400_000);
  });
});
