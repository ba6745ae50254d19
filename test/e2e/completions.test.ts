import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { rankCompletions } from "../../src/mcp/completions";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();

async function save(client: Client, args: Record<string, unknown>): Promise<string> {
  const r = await callTool(client, "save_memory", args);
  expect(r.structuredContent?.status, textOf(r)).toBe("created");
  return r.structuredContent!.id as string;
}

async function topic(client: Client, value: string, args?: Record<string, string>): Promise<string[]> {
  const r = await client.complete({
    ref: { type: "ref/prompt", name: "memory-context" },
    argument: { name: "topic", value },
    ...(args ? { context: { arguments: args } } : {}),
  });
  return r.completion.values;
}

describe("ranking completions", () => {
  it("puts prefix matches first, most used first, then matches inside; case-insensitive", () => {
    const terms = new Map([
      ["hiking", 2],
      ["Hiking boots", 5],
      ["night hikes", 9],
      ["work", 4],
    ]);
    expect(rankCompletions("hik", terms)).toEqual(["Hiking boots", "hiking", "night hikes"]);
    expect(rankCompletions("", terms)).toEqual(["night hikes", "Hiking boots", "work", "hiking"]);
    expect(rankCompletions("zzz", terms)).toEqual([]);
  });
});

for (const transport of ["mcp", "sse"] as const) {
  describe(`completions and logging over ${transport}`, () => {
    it("declares completions and logging, and accepts logging/setLevel", async () => {
      const client = await connect((await createKey({ user: uniqueUser("cmp") })).key, { transport });
      expect(client.getServerCapabilities()).toMatchObject({ completions: {}, logging: {} });
      expect(await client.setLoggingLevel("warning")).toEqual({});
    });

    it("completes the prompt's topic from the person's categories and tags, and no one else's", async () => {
      const client = await connect((await createKey({ user: uniqueUser("cmp") })).key, { transport });
      await save(client, { content: "I walk the Pennine Way every spring", category: "hobby", tags: ["hiking"] });
      await save(client, { content: "Prefers window seats on trains", category: "preference", tags: ["travel"] });
      const other = await connect((await createKey({ user: uniqueUser("cmp") })).key, { transport });
      await save(other, { content: "Climbs in the Alps", category: "hobby", tags: ["hillwalking"] });

      expect(await topic(client, "hi")).toEqual(["hiking"]);
      expect(await topic(client, "pref")).toEqual(["preference"]);
      expect(await topic(client, "")).toEqual(expect.arrayContaining(["hobby", "preference", "hiking", "travel"]));
      expect(await topic(client, "")).not.toContain("hillwalking");
    });

    it("completes memory://{id} from the person's recent memory ids", async () => {
      const client = await connect((await createKey({ user: uniqueUser("cmp") })).key, { transport });
      const id = await save(client, { content: "Allergic to peanuts", category: "health" });
      const r = await client.complete({
        ref: { type: "ref/resource", uri: "memory://{id}" },
        argument: { name: "id", value: id.slice(0, 12).toLowerCase() },
      });
      expect(r.completion.values).toEqual([id]);
    });

    it("answers no values (not an error) when an app key names no end user, and completes one it names", async () => {
      const app = await createKey({ app: `cmp-${transport}`, account: uniqueUser("acct") });
      const client = await connect(app.key, { transport });
      expect(await topic(client, "")).toEqual([]);
      await callTool(client, "save_memory", { content: "Plays the cello", category: "music", user_id: "alice" });
      expect(await topic(client, "mu", { user_id: "alice" })).toEqual(["music"]);
    });
  });
}
