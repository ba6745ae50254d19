/**
 * What a model answers, over the real MCP transports with the SDK client: the user's Durable Object
 * runs the OpenAI-compatible embedder and Llm against a hostile upstream (test/helpers/hostile-upstream.ts,
 * as the providers' fetch). An embedding server answering 1e39 must not fail recall_memory's output
 * validation (a NaN score) nor rank anything first in search; a summary carrying an instruction and
 * an AWS key must not become the search/fetch title or text; a conflict decision's free-text reason
 * must not come back in save_memory's answer.
 */
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { OpenAiCompatibleEmbedder } from "../../src/providers/openai-compatible/openai-compatible-embedder";
import { OpenAiCompatibleLlm } from "../../src/providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "../../src/providers/rules-llm";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { AWS_KEY, type HostileMode, hostileFetch, newRecord, UNSCREENED } from "../helpers/hostile-upstream";
import { insertMemories, ok, overrideDeps, ownerOf, stubOf } from "../helpers/lifecycle";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const BASE = "http://upstream.test/v1";

async function hostileUser(mode: HostileMode): Promise<{ key: string; owner: Scope }> {
  const userId = uniqueUser(`hostile-e2e-${mode}`);
  const { key } = await createKey({ user: userId });
  const owner = ownerOf(userId);
  await insertMemories(owner, [
    { content: "Has a season ticket for the opera" },
    { content: "Walks to work along the canal" },
  ]);
  await overrideDeps(owner, (deps) => {
    const endpoint = { baseUrl: BASE, fetcher: hostileFetch({ mode }, deps.embedder.dimensions, newRecord(), BASE) };
    return {
      embedder: new OpenAiCompatibleEmbedder(endpoint, deps.embedder.model, deps.embedder.dimensions, 1_000),
      llm: new OpenAiCompatibleLlm(endpoint, "hostile-llm", new RulesLlm(), deps.log, 1_000),
    };
  });
  await ok(stubOf(owner).stats(owner));
  return { key, owner };
}

const unscreened = (text: string) => UNSCREENED.some((m) => m.test(text));

describe.each(["mcp", "sse"] as const)("a hostile model over /%s", (transport) => {
  it("an embedding of 1e39: the save is stored, recall_memory and search answer", async () => {
    const { key } = await hostileUser("non-finite");
    const client = await connect(key, { transport });
    const saved = await callTool(client, "save_memory", { content: "I keep bees on the roof of my flat in Porto" });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    expect(saved.structuredContent).toMatchObject({ status: "created", indexed_later: true });
    for (let i = 0; i < 3; i++) {
      const recalled = await callTool(client, "recall_memory", { query: "bees on the roof in Porto", limit: 5 });
      expect(recalled.isError, textOf(recalled)).toBeFalsy();
      const ids = (recalled.structuredContent as { memories: { id: string }[] }).memories.map((m) => m.id);
      expect(ids).toContain(saved.structuredContent?.id);
    }
    const searched = await callTool(client, "search", { query: "opera season ticket" });
    expect(searched.isError, textOf(searched)).toBeFalsy();
    const titles = (searched.structuredContent as { results: { title: string }[] }).results.map((r) => r.title);
    expect(titles[0]).toContain("opera");
  });

  it("a summary with an instruction and an AWS key is neither the search nor the fetch title", async () => {
    const { key } = await hostileUser("injection");
    const client = await connect(key, { transport });
    const long = `My garden plan for the spring: ${"tomatoes, basil, courgettes and a row of sunflowers along the fence; ".repeat(9)}`;
    const saved = await callTool(client, "save_memory", { content: long });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    const id = saved.structuredContent?.id as string;
    const found = await callTool(client, "search", { query: "garden sunflowers fence" });
    const hit = (found.structuredContent as { results: { id: string; title: string }[] }).results.find(
      (r) => r.id === id,
    );
    expect(hit?.title.startsWith("My garden plan")).toBe(true);
    const doc = await callTool(client, "fetch", { id });
    expect(doc.isError, textOf(doc)).toBeFalsy();
    for (const shown of [textOf(saved), textOf(found), textOf(doc)]) {
      expect(unscreened(shown)).toBe(false);
      expect(shown).not.toContain(AWS_KEY);
    }
  });

  it("a conflict decision's free-text reason never comes back in save_memory's answer", async () => {
    const { key } = await hostileUser("injection");
    const client = await connect(key, { transport });
    await callTool(client, "save_memory", { content: "I live in Shanghai" });
    const moved = await callTool(client, "save_memory", { content: "I live in Hangzhou now" });
    expect(moved.isError, textOf(moved)).toBeFalsy();
    expect(moved.structuredContent).toMatchObject({ status: "superseded", reason: "llm: supersedes #1" });
    expect(unscreened(textOf(moved))).toBe(false);
    expect(unscreened(JSON.stringify(moved.structuredContent))).toBe(false);
  });
});
