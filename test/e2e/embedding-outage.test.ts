/**
 * "Remember this" while the embedding model is down, over a real MCP SDK client on /mcp and /sse and
 * over POST /v1/import: the write is stored and answered as stored, in the structured output
 * (`indexed_later`) and in the text; recall_memory finds it by its words at once; memory_stats counts
 * it unindexed; regenerate_embeddings indexes it once the model answers again.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { localeMessages } from "../../src/mcp/messages";
import type { Scope } from "../../src/memory/types";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { type Outage, outageEmbedder } from "../helpers/embedder-outage";
import { insertMemories, ok, overrideDeps, ownerOf, stubOf } from "../helpers/lifecycle";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const en = localeMessages("en");

type Saved = { status: string; id: string; indexed_later: boolean };
type Stats = { index: { unindexed: number; in_sync: boolean } };
type Recalled = { memories: { id: string }[] };

/** A user with a key, a few indexed memories, and an embedder that fails (429) while `outage.down`. */
async function userWithOutage(): Promise<{ key: string; owner: Scope; outage: Outage }> {
  const userId = uniqueUser("outage-e2e");
  const { key } = await createKey({ user: userId });
  const owner = ownerOf(userId);
  const outage: Outage = { down: false, failedCalls: 0 };
  await insertMemories(owner, [
    { content: "Has a season ticket for the opera" },
    { content: "Walks to work along the canal" },
    { content: "Collects enamel pins from museums" },
  ]);
  await overrideDeps(owner, (deps) => ({ embedder: outageEmbedder(deps.embedder, "429", outage) }));
  await ok(stubOf(owner).stats(owner));
  return { key, owner, outage };
}

describe.each(["mcp", "sse"] as const)("save_memory during an embedding outage over /%s", (transport) => {
  it("is stored, says indexed later, is recalled by its words, and is indexed when the model is back", async () => {
    const { key, outage } = await userWithOutage();
    const client = await connect(key, { transport });
    await callTool(client, "regenerate_embeddings", {});
    outage.down = true;

    const r = await callTool(client, "save_memory", { content: "My sister Ylva sings in a choir in Uppsala" });
    expect(r.isError).toBeFalsy();
    const saved = r.structuredContent as Saved;
    expect(saved).toMatchObject({ status: "created", indexed_later: true });
    expect(textOf(r)).toContain(en.saved);
    expect(textOf(r)).toContain(en.indexedLater);
    expect(outage.failedCalls).toBeGreaterThan(0);

    const found = await callTool(client, "recall_memory", { query: "Ylva choir", limit: 5 });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as Recalled).memories.map((m) => m.id)).toContain(saved.id);
    const during = (await callTool(client, "memory_stats", {})).structuredContent as Stats;
    expect(during.index).toMatchObject({ unindexed: 1, in_sync: false });

    outage.down = false;
    const repaired = await callTool(client, "regenerate_embeddings", {});
    expect(repaired.isError).toBeFalsy();
    const after = (await callTool(client, "memory_stats", {})).structuredContent as Stats;
    expect(after.index).toMatchObject({ unindexed: 0, in_sync: true });
    const again = await callTool(client, "save_memory", { content: "I water the ferns on Fridays" });
    expect(again.structuredContent).toMatchObject({ status: "created", indexed_later: false });
    expect(textOf(again)).not.toContain(en.indexedLater);
  });
});

describe("the other tools and /v1/import during an embedding outage", () => {
  it("update, restore and summarize answer what they stored; an import lands whole", async () => {
    const { key, outage } = await userWithOutage();
    const client = await connect(key);
    await callTool(client, "regenerate_embeddings", {});
    const saved = (await callTool(client, "save_memory", { content: "I park on level three" }))
      .structuredContent as Saved;
    const doomed = (await callTool(client, "save_memory", { content: "The router password hint is blue" }))
      .structuredContent as Saved;
    await callTool(client, "delete_memory", { id: doomed.id });
    outage.down = true;

    const updated = await callTool(client, "update_memory", { id: saved.id, content: "I park on level five" });
    expect(updated.isError).toBeFalsy();
    expect(updated.structuredContent).toMatchObject({
      indexed_later: true,
      memory: { content: "I park on level five" },
    });
    expect(textOf(updated)).toContain(en.indexedLater);

    const restored = await callTool(client, "restore_memory", { id: doomed.id });
    expect(restored.isError).toBeFalsy();
    expect(restored.structuredContent).toMatchObject({ indexed_later: true, memory: { status: "active" } });

    const summary = await callTool(client, "summarize_conversation", {
      transcript: "User: I live in Tromsø.\nAssistant: Cold!\nUser: My cat is called Pixel.",
    });
    expect(summary.isError).toBeFalsy();
    const outcomes = (summary.structuredContent as { outcomes: { status: string; indexed_later: boolean }[] }).outcomes;
    expect(outcomes.length).toBeGreaterThanOrEqual(2);
    for (const o of outcomes) expect(o).toMatchObject({ status: "created", indexed_later: true });
    expect(textOf(summary)).toContain(en.indexedLaterNote);

    const res = await exports.default.fetch(
      new Request("http://localhost/v1/import", {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body: ["Prefers aisle seats", "Allergic to kiwi"].map((content) => JSON.stringify({ content })).join("\n"),
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ imported: 2, indexed: 0, indexed_later: 2 });

    const stats = (await callTool(client, "memory_stats", {})).structuredContent as Stats;
    expect(stats.index.unindexed).toBe(2 + outcomes.length + 2);
    outage.down = false;
    await callTool(client, "regenerate_embeddings", {});
    expect(((await callTool(client, "memory_stats", {})).structuredContent as Stats).index.unindexed).toBe(0);
  });
});
