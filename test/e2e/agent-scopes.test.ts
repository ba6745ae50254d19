import { beforeAll, describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, connectMcp, textOf, trackedConnect } from "../helpers/mcp-client";

type View = { id: string; content: string; agent_id: string | null };

const connect = trackedConnect();

/**
 * One user, three callers: the owner (no agent), agent "alpha" (X-Agent-Id header) and agent
 * "beta" (agent_id argument, or the header where a surface has no arguments). Every memory
 * mentions Nightingale so every query could find every memory if visibility failed.
 */
const MEMORIES = {
  shared: { content: "Grace Hopper leads the Nightingale team", category: "personal", priority: 1 },
  alphaCore: { content: "Alpha keeps the Nightingale launch codes in vault seven", category: "personal", priority: 1 },
  alphaPref: { content: "Grace wants the Nightingale dashboard in dark theme", category: "preference", priority: 2 },
  alphaShared: {
    content: "The Nightingale standup is on Monday mornings",
    category: "work",
    priority: 3,
    shared: true,
  },
  betaCore: { content: "Beta drafts the Nightingale release notes in French", category: "personal", priority: 1 },
} as const;
type Name = keyof typeof MEMORIES;

let key: string;
let ids: Record<Name, string>;
const ALPHA_PRIVATE = () => [ids.alphaCore, ids.alphaPref];
const BETA_VISIBLE = () => [ids.shared, ids.alphaShared, ids.betaCore].sort();

beforeAll(async () => {
  key = (await createKey({ user: uniqueUser("agents") })).key;
  const owner = await connectMcp(key);
  const alpha = await connectMcp(key, { headers: { "x-agent-id": "alpha" } });
  ids = {} as Record<Name, string>;
  for (const [name, args] of Object.entries(MEMORIES) as [Name, (typeof MEMORIES)[Name]][]) {
    const saved = await callTool(name === "betaCore" ? owner : name === "shared" ? owner : alpha, "save_memory", {
      ...args,
      ...(name === "betaCore" ? { agent_id: "beta" } : {}),
    });
    expect(saved.structuredContent?.status, `${name}: ${textOf(saved)}`).toBe("created");
    ids[name] = saved.structuredContent!.id as string;
  }
  await Promise.all([owner.close(), alpha.close()]);
});

const beta = { agent_id: "beta" };
const idsOf = (r: { structuredContent?: Record<string, unknown> }, field = "memories") =>
  (r.structuredContent![field] as View[]).map((m) => m.id);

describe("agent scopes: the write path", () => {
  it("stores private memories with their agent and shared ones without", async () => {
    const owner = await connect(key);
    const all = await callTool(owner, "list_memories", { limit: 50 });
    const agents = Object.fromEntries((all.structuredContent!.memories as View[]).map((m) => [m.id, m.agent_id]));
    expect(agents).toEqual({
      [ids.shared]: null,
      [ids.alphaCore]: "alpha",
      [ids.alphaPref]: "alpha",
      [ids.alphaShared]: null,
      [ids.betaCore]: "beta",
    });
  });
});

describe("agent scopes: beta never sees alpha's private memories", () => {
  it("recall, shaped through all stages and with a limit", async () => {
    const client = await connect(key);
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const r = await callTool(client, "recall_memory", { query: "Nightingale", session_id: "beta-chat", ...beta });
      idsOf(r).forEach((id) => seen.add(id));
    }
    const full = await callTool(client, "recall_memory", {
      query: "Nightingale vault launch codes dark theme dashboard",
      limit: 50,
      ...beta,
    });
    idsOf(full).forEach((id) => seen.add(id));
    expect([...seen].sort()).toEqual(BETA_VISIBLE());
  });

  it("stage 1 core memories", async () => {
    const client = await connect(key);
    const first = await callTool(client, "recall_memory", { query: "launch codes", session_id: "beta-core", ...beta });
    expect(first.structuredContent?.stage).toBe(1);
    expect(idsOf(first).sort()).toEqual([ids.betaCore, ids.shared].sort());
  });

  it("list_memories, also when beta filters by alpha", async () => {
    const client = await connect(key);
    expect(idsOf(await callTool(client, "list_memories", { limit: 50, ...beta })).sort()).toEqual(BETA_VISIBLE());
    expect(idsOf(await callTool(client, "list_memories", { agent: "alpha", status: "all", ...beta }))).toEqual([]);
    expect(idsOf(await callTool(client, "list_memories", { agent: "beta", ...beta }))).toEqual([ids.betaCore]);
  });

  it("memory_history, update, delete and restore treat alpha's memory as not found and leave it alone", async () => {
    const client = await connect(key);
    const target = ids.alphaCore;
    for (const [tool, args] of [
      ["memory_history", { id: target }],
      ["update_memory", { id: target, content: "overwritten by beta" }],
      ["restore_memory", { id: target }],
    ] as const) {
      const r = await callTool(client, tool, { ...args, ...beta });
      expect(r.isError, tool).toBe(true);
      expect(textOf(r), tool).toContain(`Memory ${target} was not found`);
    }
    const del = await callTool(client, "delete_memory", { ids: ALPHA_PRIVATE(), ...beta });
    expect(del.structuredContent).toEqual({ deleted: [], already_deleted: [], not_found: ALPHA_PRIVATE() });
    const forget = await callTool(client, "forget_memories", { category: "personal", dry_run: true, ...beta });
    expect(idsOf(forget, "sample").sort()).toEqual([ids.betaCore, ids.shared].sort());
    const alpha = await connect(key, { headers: { "x-agent-id": "alpha" } });
    const still = await callTool(alpha, "memory_history", { id: target });
    expect(still.structuredContent?.memory).toMatchObject({
      id: target,
      status: "active",
      content: MEMORIES.alphaCore.content,
    });
  });

  it("memory_stats counts only what beta can see, and filters by agent", async () => {
    const client = await connect(key);
    const own = await callTool(client, "memory_stats", { ...beta });
    expect(own.structuredContent).toMatchObject({ total: 3, by_category: { personal: 2, work: 1 } });
    expect((await callTool(client, "memory_stats", { agent: "alpha", ...beta })).structuredContent?.total).toBe(0);
    expect((await callTool(client, "memory_stats", { agent: "beta", ...beta })).structuredContent?.total).toBe(1);
    const owner = await callTool(client, "memory_stats", {});
    expect(owner.structuredContent).toMatchObject({ total: 5, by_category: { personal: 3, preference: 1, work: 1 } });
    expect((await callTool(client, "memory_stats", { agent: "alpha" })).structuredContent).toMatchObject({
      total: 2,
      by_category: { personal: 1, preference: 1 },
    });
  });

  for (const transport of ["mcp", "sse"] as const) {
    it(`resources over ${transport} (agent from X-Agent-Id)`, async () => {
      const client = await connect(key, { transport, headers: { "x-agent-id": "beta" } });
      const texts = await Promise.all(
        ["memory://recent", "memory://preferences", "memory://stats"].map(async (uri) =>
          JSON.stringify((await client.readResource({ uri })).contents),
        ),
      );
      for (const text of texts) {
        for (const id of ALPHA_PRIVATE()) expect(text).not.toContain(id);
        expect(text).not.toContain("vault seven");
      }
      expect(texts[0]).toContain(ids.betaCore);
      const stats = (await client.readResource({ uri: "memory://stats" })).contents[0] as { text: string };
      expect(JSON.parse(stats.text).total).toBe(3);
      await expect(client.readResource({ uri: `memory://${ids.alphaCore}` })).rejects.toThrow(
        `Memory ${ids.alphaCore} was not found`,
      );
      const listed = (await client.listResources()).resources.map((r) => r.uri);
      expect(listed).toContain(`memory://${ids.betaCore}`);
      for (const id of ALPHA_PRIVATE()) expect(listed).not.toContain(`memory://${id}`);
    });

    it(`the memory-context prompt over ${transport}`, async () => {
      const client = await connect(key, { transport });
      // The topic names alpha's private facts (launch codes, dashboard) and a shared one (standup):
      // recall abstains when nothing visible is about the topic, so a shared match must be in it.
      const prompt = await client.getPrompt({
        name: "memory-context",
        arguments: { topic: "Nightingale standup, launch codes and dashboard", ...beta },
      });
      const text = (prompt.messages[0].content as { text: string }).text;
      for (const id of ALPHA_PRIVATE()) expect(text).not.toContain(id);
      for (const id of BETA_VISIBLE()) expect(text).toContain(id);
    });
  }
});

describe("agent scopes: the other directions", () => {
  it("alpha sees its own and shared memories, not beta's", async () => {
    const alpha = await connect(key, { headers: { "x-agent-id": "alpha" } });
    const r = await callTool(alpha, "recall_memory", { query: "Nightingale", limit: 50 });
    expect(idsOf(r).sort()).toEqual([ids.shared, ids.alphaCore, ids.alphaPref, ids.alphaShared].sort());
    const pref = await alpha.readResource({ uri: "memory://preferences" });
    expect((pref.contents[0] as { text: string }).text).toContain(ids.alphaPref);
  });

  it("a call without an agent recalls shared memories only, but the owner's list shows every agent's", async () => {
    const owner = await connect(key);
    const r = await callTool(owner, "recall_memory", { query: "Nightingale", limit: 50 });
    expect(idsOf(r).sort()).toEqual([ids.shared, ids.alphaShared].sort());
    const prompt = await owner.getPrompt({ name: "memory-context", arguments: { topic: "Nightingale" } });
    const text = (prompt.messages[0].content as { text: string }).text;
    for (const id of [ids.alphaCore, ids.alphaPref, ids.betaCore]) expect(text).not.toContain(id);
    expect(idsOf(await callTool(owner, "list_memories", { limit: 50 }))).toHaveLength(5);
  });

  it("the agent_id argument wins over the X-Agent-Id header", async () => {
    const client = await connect(key, { headers: { "x-agent-id": "alpha" } });
    const r = await callTool(client, "recall_memory", { query: "Nightingale", limit: 50, ...beta });
    expect(idsOf(r).sort()).toEqual(BETA_VISIBLE());
  });

  it("rejects a malformed agent id naming the header or field and the rule", async () => {
    const client = await connect(key, { headers: { "x-agent-id": "not valid!" } });
    const r = await callTool(client, "recall_memory", { query: "Nightingale" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("X-Agent-Id: must be 1-128 letters or digits (any script) or _ . @ : -");
    const arg = await callTool(client, "recall_memory", { query: "Nightingale", agent_id: "not valid!" });
    expect(textOf(arg)).toMatch(/agent_id.*must be 1-128 letters or digits \(any script\)/);
  });
});
