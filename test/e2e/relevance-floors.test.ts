/**
 * The relevance floors (memory/retrieval-weights.ts) from the query's side: a query that shares no
 * word with a memory but whose hash embedding still has a clearly positive cosine with it (trigrams
 * "mus", "ust", "sta" of "mustard" and "Mustang", and hash collisions) finds nothing. Only the dense
 * floor keeps it out; lowering it to 0 or anywhere below the cosine lets the memory in.
 */
import { describe, expect, it } from "vitest";
import { indexTokens, queryTokens } from "../../src/memory/text/tokenize";
import { cosine } from "../../src/memory/vector-math";
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
const MEMORY = "Drives a Mustang";
const UNRELATED = "mustard";

describe("relevance floors", () => {
  it("an unrelated query with a positive cosine well above zero finds nothing", async () => {
    const [m, q] = await new LocalHashEmbedder().embed([MEMORY, UNRELATED]);
    const score = cosine(m, q);
    // The premise: clearly positive (a floor of 0, or of 0.2, would let it in); the recall below
    // finding nothing is what shows the floor sits above it.
    expect(score).toBeGreaterThan(0.2);
    const shared = indexTokens(MEMORY).filter((t) => queryTokens(UNRELATED).includes(t));
    expect(shared, "no word in common: only the dense floor decides").toEqual([]);

    const { key } = await createKey({ user: uniqueUser("floor") });
    const client = await connect(key);
    const saved = await callTool(client, "save_memory", { content: MEMORY });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    for (const args of [{ query: UNRELATED, limit: 10 }, { query: UNRELATED }]) {
      const r = await callTool(client, "recall_memory", args);
      expect(r.isError, textOf(r)).toBeFalsy();
      expect((r.structuredContent as { memories: unknown[] }).memories, JSON.stringify(args)).toEqual([]);
    }
    const found = await callTool(client, "recall_memory", { query: "Mustang", limit: 10 });
    expect(JSON.stringify(found.structuredContent)).toContain(saved.structuredContent?.id as string);
  });
});
