/**
 * User, app, account and agent ids in any script, where they are taken: tool
 * arguments, /v1/import's query, the X-Agent-Id header (percent-encoded UTF-8), and key rows.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { principalIdForHeader } from "../../src/memory/ids";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
type Recall = { memories: { id: string; content: string; agent_id: string | null }[] };

const suffix = () => uniqueUser("").slice(1);

describe("ids in any script", () => {
  it("an app key serves 繁星的id, and the decomposed spelling of an id reaches the same store", async () => {
    const client = await connect((await createKey({ app: "bot" })).key);
    const user = `繁星的id-${suffix()}`;
    const saved = await callTool(client, "save_memory", { content: "喜欢哥特风服装", user_id: user });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    const back = await callTool(client, "recall_memory", { query: "哥特风服装", limit: 5, user_id: user });
    expect((back.structuredContent as Recall).memories.map((m) => m.content)).toEqual(["喜欢哥特风服装"]);

    const zoe = `Zoë-${suffix()}`;
    await callTool(client, "save_memory", { content: "Zoë plays the cello", user_id: zoe });
    const viaNfd = await callTool(client, "recall_memory", { query: "cello", limit: 5, user_id: zoe.normalize("NFD") });
    expect((viaNfd.structuredContent as Recall).memories.map((m) => m.content)).toEqual(["Zoë plays the cello"]);
  });

  it("two Chinese users whose memories share every character each recall only their own", async () => {
    const client = await connect((await createKey({ app: "bot" })).key);
    const tag = suffix();
    // One name a prefix of the other: owner addresses must not meet on a shared prefix.
    const users = [`王芳-${tag}`, `王芳芳-${tag}`];
    const own = new Map<string, string>();
    for (const [i, user] of users.entries()) {
      const r = await callTool(client, "save_memory", {
        content: i === 0 ? "我每天骑自行车上班，周末和妈妈吃饭" : "周末和妈妈吃饭，我每天骑自行车上班",
        user_id: user,
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      own.set(user, r.structuredContent?.id as string);
    }
    for (const user of users) {
      for (const args of [{ limit: 10 }, { session_id: `first-${tag}` }]) {
        const r = await callTool(client, "recall_memory", { query: "我每天怎么上班？", user_id: user, ...args });
        expect(
          (r.structuredContent as Recall).memories.map((m) => m.id),
          user,
        ).toEqual([own.get(user)]);
      }
    }
  });

  it("a user key whose user id is Chinese acts as that user", async () => {
    const user = `繁星-${suffix()}`;
    const client = await connect((await createKey({ user })).key);
    await callTool(client, "save_memory", { content: "我住在上海" });
    const again = await callTool(client, "recall_memory", { query: "上海", limit: 5, user_id: user.normalize("NFD") });
    expect(again.isError, textOf(again)).toBeFalsy();
  });

  it("refuses ids with separator or control characters, naming the field and the rule", async () => {
    const client = await connect((await createKey({ app: "bot" })).key);
    for (const [field, value] of [
      ["user_id", "繁星 的id"],
      ["user_id", "a\u0000b"],
      ["agent_id", "planner\u2028"],
    ]) {
      const r = await callTool(client, "recall_memory", { query: "x", user_id: "u-1", [field]: value });
      expect(r.isError, `${field}=${JSON.stringify(value)}`).toBe(true);
      expect(textOf(r)).toMatch(new RegExp(`${field}.*letters or digits \\(any script\\)`));
    }
  });

  it("takes a non-ASCII agent id from X-Agent-Id percent-encoded, as the agent_id argument names it", async () => {
    const user = uniqueUser();
    const { key } = await createKey({ user });
    const agent = "写作助手";
    const viaHeader = await connect(key, { headers: { "x-agent-id": principalIdForHeader(agent) } });
    const saved = await callTool(viaHeader, "save_memory", { content: "Drafts chapter three on Sundays" });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    expect((saved.structuredContent as { memory: { agent_id: string } }).memory.agent_id).toBe(agent);
    const plain = await connect(key);
    const asArg = await callTool(plain, "recall_memory", { query: "chapter three", limit: 5, agent_id: agent });
    expect((asArg.structuredContent as Recall).memories.map((m) => m.agent_id)).toEqual([agent]);
    const other = await callTool(plain, "recall_memory", { query: "chapter three", limit: 5 });
    expect((other.structuredContent as Recall).memories).toEqual([]);
  });

  it("refuses a malformed X-Agent-Id naming the header", async () => {
    const { key } = await createKey({ user: uniqueUser() });
    const client = await connect(key, { headers: { "x-agent-id": "%E7%B9" } });
    const r = await callTool(client, "recall_memory", { query: "x", limit: 5 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/X-Agent-Id.*percent-encode/);
  });

  it("/v1/import takes a Chinese user_id in its query", async () => {
    const { key } = await createKey({ app: "bot" });
    const user = `王芳-${suffix()}`;
    const res = await exports.default.fetch(
      new Request(`http://localhost/v1/import?user_id=${encodeURIComponent(user)}`, {
        method: "POST",
        headers: { host: "localhost", authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
        body: `${JSON.stringify({ content: "王芳：和男朋友张伟订婚了", external_id: "D1:1" })}\n`,
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const client = await connect(key);
    const r = await callTool(client, "recall_memory", { query: "张伟订婚", limit: 5, user_id: user });
    expect((r.structuredContent as Recall).memories.map((m) => m.content)).toEqual(["王芳：和男朋友张伟订婚了"]);
  });
});
