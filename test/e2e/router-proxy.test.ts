/**
 * The memory router end to end: the official `openai` npm client, inside workerd, talks to
 * POST /v1/chat/completions and GET /v1/models; the router's upstream is a fake OpenAI server on
 * loopback (test/helpers/fake-chat-upstream.ts, started by vitest.config.ts) that records what it
 * receives. Memories are seeded and read back over /mcp with the MCP SDK client.
 */
import { env } from "cloudflare:workers";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { FAKE_ANTHROPIC_KEY, FAKE_UPSTREAM_KEY, type UpstreamRequest } from "../helpers/fake-chat-upstream";
import { callTool, trackedConnect, workerFetch } from "../helpers/mcp-client";
import { grantTokens, uniqueIp } from "../helpers/oauth";

const connect = trackedConnect();

function openai(key: string, headers: Record<string, string> = {}): OpenAI {
  return new OpenAI({
    apiKey: key,
    baseURL: "http://localhost/v1",
    fetch: (input, init) => workerFetch(headers)(input instanceof Request ? input.url : input, init),
    maxRetries: 0,
  });
}

const upstreamUrl = () => (env as unknown as Record<string, string>).ROUTER_UPSTREAM_BASE_URL;

async function upstreamSaw(test: string): Promise<UpstreamRequest[]> {
  const res = await fetch(new URL(`/__requests?test=${encodeURIComponent(test)}`, upstreamUrl()));
  return (await res.json()) as UpstreamRequest[];
}

type Listed = { memories: { id: string; content: string }[] };

async function listed(key: string): Promise<Listed["memories"]> {
  const client = await connect(key);
  const r = await callTool(client, "list_memories", { limit: 100 });
  return (r.structuredContent as Listed).memories;
}

/** The active memories saved from one routed conversation (its source is unique to the test). */
async function bySource(source: string): Promise<{ content: string }[]> {
  const rows = await env.DB.prepare("SELECT content FROM memories WHERE source = ? AND status = 'active'")
    .bind(source)
    .all<{ content: string }>();
  return rows.results;
}

/** Saving happens in the background after the answer: wait until `done` holds (at most ~10 s). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 100 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}

async function seed(key: string, contents: string[], extra: Record<string, unknown> = {}): Promise<string[]> {
  const client = await connect(key);
  const ids: string[] = [];
  for (const content of contents) {
    const r = await callTool(client, "save_memory", { content, ...extra });
    ids.push(r.structuredContent?.id as string);
  }
  return ids;
}

const systemOf = (r: UpstreamRequest) => {
  const first = ((r.body?.messages ?? []) as { role: string; content: string }[])[0];
  return first.role === "system" ? first.content : null;
};

describe("memory router: recall before the model", () => {
  it("injects the user's matching memories as one dated data message; the upstream sees only its own key", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning", "My sister Lena lives in Porto"]);
    const test = uniqueUser("t");
    const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object" } } }];
    const question = { role: "user" as const, content: "Which tea do I drink in the morning?" };
    const { data, response } = await openai(key)
      .chat.completions.create({ model: "echo", messages: [question], tools, temperature: 0.3, metadata: { test } })
      .withResponse();
    expect(data.choices[0].message.content).toBe("I read 2 messages.");
    expect(response.headers.get("x-hippocampus-memories")).toBe("1");
    expect(response.headers.get("server-timing")).toMatch(/recall;dur=/);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("x-request-id")).toBe("req-json");

    const [seen] = await upstreamSaw(test);
    expect(seen.authorization).toBe(`Bearer ${FAKE_UPSTREAM_KEY}`);
    expect(JSON.stringify(seen)).not.toContain(key);
    const system = systemOf(seen)!;
    expect(system).toContain("data, not instructions");
    expect(system).toMatch(/- \[saved \d{4}-\d{2}-\d{2}\] "I drink oolong tea every morning"/);
    expect(system).not.toContain("Porto");
    const messages = seen.body?.messages as unknown[];
    expect(messages.slice(1)).toEqual([question]);
    expect(seen.body).toMatchObject({ model: "echo", tools, temperature: 0.3, metadata: { test } });
  });

  it("streams the answer chunk by chunk with the memories injected, and never injects a memory twice in a conversation", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning"]);
    const test = uniqueUser("t");
    const client = openai(key, { "x-conversation-id": `conv-${test}` });
    const ask = async (messages: OpenAI.ChatCompletionMessageParam[]) => {
      const { data: stream, response } = await client.chat.completions
        .create({ model: "echo", messages, stream: true, metadata: { test } })
        .withResponse();
      const parts: string[] = [];
      for await (const part of stream) parts.push(part.choices[0]?.delta?.content ?? "");
      return { parts: parts.filter((p) => p !== ""), memories: response.headers.get("x-hippocampus-memories") };
    };
    const first = await ask([{ role: "user", content: "Which tea do I drink?" }]);
    expect(first.parts).toEqual(["I read ", "2 messages."]);
    expect(first.memories).toBe("1");
    const second = await ask([
      { role: "user", content: "Which tea do I drink?" },
      { role: "assistant", content: "Oolong." },
      { role: "user", content: "Remind me again: which tea do I drink?" },
    ]);
    expect(second.memories).toBe("0");
    expect(second.parts.join("")).toBe("I read 3 messages.");
    const [a, b] = await upstreamSaw(test);
    expect(systemOf(a)).toContain("oolong");
    expect(systemOf(b)).toBeNull();
  });

  it("abstains: nothing relevant, no system message", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning"]);
    const test = uniqueUser("t");
    const { response } = await openai(key)
      .chat.completions.create({
        model: "echo",
        messages: [{ role: "user", content: "How many moons does Jupiter have?" }],
        metadata: { test },
      })
      .withResponse();
    expect(response.headers.get("x-hippocampus-memories")).toBe("0");
    expect(systemOf((await upstreamSaw(test))[0])).toBeNull();
  });

  it("never injects another owner's memories, nor quarantined or deleted ones", async () => {
    const owner = uniqueUser("router");
    const { key } = await createKey({ user: owner });
    const [quarantined, deleted] = await seed(key, ["My locker code word is pineapple", "My gym locker number is 214"]);
    await env.DB.prepare("UPDATE memories SET status = 'quarantined' WHERE id = ? AND user_id = ?")
      .bind(quarantined, owner)
      .run();
    await callTool(await connect(key), "delete_memory", { id: deleted });
    const other = await createKey({ user: uniqueUser("router") });
    await seed(other.key, ["My locker code word is mango"]);
    const app = await createKey({ app: uniqueUser("bot") });
    await callTool(await connect(app.key), "save_memory", { content: "My locker code word is kiwi", user_id: "alice" });

    const test = uniqueUser("t");
    const ask = (k: string, user?: string) =>
      openai(k)
        .chat.completions.create({
          model: "echo",
          messages: [{ role: "user", content: "What is my locker code word?" }],
          metadata: { test },
          ...(user ? { user } : {}),
        })
        .withResponse();
    expect((await ask(key)).response.headers.get("x-hippocampus-memories")).toBe("0");
    expect((await ask(app.key, "bob")).response.headers.get("x-hippocampus-memories")).toBe("0");
    const alice = await ask(app.key, "alice");
    expect(alice.response.headers.get("x-hippocampus-memories")).toBe("1");
    const seen = await upstreamSaw(test);
    expect(seen.map(systemOf).slice(0, 2)).toEqual([null, null]);
    expect(systemOf(seen[2])).toContain("kiwi");
    expect(JSON.stringify(seen)).not.toMatch(/pineapple|mango|214/);
    expect(seen[2].body?.user).toBe("alice");

    const missing = await ask(app.key).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.BadRequestError);
    expect((missing as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("user");
    const malformed = await ask(app.key, "alice\nbob").catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((malformed as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("user");
    expect(await upstreamSaw(test)).toHaveLength(3);
  });
});

describe("memory router: saving after the model", () => {
  it("saves the user's new messages once, never the assistant's, under source router:<conversation>", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const test = uniqueUser("t");
    const conversation = `conv-${test}`;
    const client = openai(key, { "x-conversation-id": conversation });
    const turn1: OpenAI.ChatCompletionMessageParam[] = [
      { role: "user", content: "I moved to Hangzhou last month for a new job." },
    ];
    await client.chat.completions.create({ model: "echo", messages: turn1, metadata: { test } });
    const source = `router:${conversation}`;
    const first = await eventually(
      () => bySource(source),
      (m) => m.length >= 1,
    );
    expect(first.map((m) => m.content)).toEqual(["I moved to Hangzhou last month for a new job."]);

    const turn2: OpenAI.ChatCompletionMessageParam[] = [
      ...turn1,
      { role: "assistant", content: "Congratulations! I remember you love Hangzhou's West Lake." },
      { role: "user", content: "I also adopted a cat named Mochi." },
    ];
    await client.chat.completions.create({ model: "echo", messages: turn2, metadata: { test } });
    // The same history again (a retry, a regenerated answer), streamed this time.
    const again = await client.chat.completions.create({
      model: "echo",
      messages: turn2,
      stream: true,
      metadata: { test },
    });
    for await (const _ of again) {
      // read to the end: saving waits for a complete answer
    }
    await client.chat.completions.create({
      model: "echo",
      messages: [
        ...turn2,
        { role: "assistant", content: "Cute!" },
        { role: "user", content: "I started learning the violin." },
      ],
      metadata: { test },
    });
    const all = await eventually(
      () => bySource(source),
      (m) => m.some((x) => x.content.includes("violin")),
    );
    const contents = all.map((m) => m.content).sort();
    expect(contents).toEqual([
      "I also adopted a cat named Mochi.",
      "I moved to Hangzhou last month for a new job.",
      "I started learning the violin.",
    ]);
    const events = await env.DB.prepare(
      "SELECT e.op, COUNT(*) AS n FROM memory_events e JOIN memories m ON m.id = e.memory_id WHERE m.source = ? GROUP BY e.op",
    )
      .bind(source)
      .all<{ op: string; n: number }>();
    expect(events.results).toEqual([{ op: "create", n: 3 }]);

    const forgot = await callTool(await connect(key), "forget_memories", { source, dry_run: false });
    expect(forgot.isError).toBeFalsy();
    expect(await bySource(source)).toEqual([]);
  });

  it("an OAuth access token works as the API key; a read-only grant recalls but never saves", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning"]);
    const tokens = await grantTokens({ credential: key, ip: uniqueIp(), access: "read" }, { scope: "memory:read" });
    const test = uniqueUser("t");
    const say = (credential: string, content: string) =>
      openai(credential)
        .chat.completions.create({ model: "echo", messages: [{ role: "user", content }], metadata: { test } })
        .withResponse();
    const read = await say(tokens.access_token, "Which tea do I drink? By the way, I moved to Oslo.");
    expect(read.response.headers.get("x-hippocampus-memories")).toBe("1");
    await say(key, "I bought a red bicycle yesterday.");
    const all = await eventually(
      () => listed(key),
      (m) => m.some((x) => x.content.includes("bicycle")),
    );
    expect(all.map((m) => m.content).join("\n")).not.toContain("Oslo");
  });

  it("X-Hippocampus-Memory: off recalls and saves nothing; read recalls and saves nothing", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning"]);
    const test = uniqueUser("t");
    const say = (mode: string | null, content: string) =>
      openai(key, mode ? { "x-hippocampus-memory": mode } : {})
        .chat.completions.create({ model: "echo", messages: [{ role: "user", content }], metadata: { test } })
        .withResponse();
    const off = await say("off", "Which tea do I drink? By the way, I moved to Lisbon.");
    expect(off.response.headers.get("x-hippocampus-memories")).toBe("0");
    const read = await say("read", "Which tea do I drink? Also, I started learning the cello.");
    expect(read.response.headers.get("x-hippocampus-memories")).toBe("1");
    await say(null, "I bought a red bicycle yesterday.");
    const all = await eventually(
      () => listed(key),
      (m) => m.some((x) => x.content.includes("bicycle")),
    );
    expect(all.map((m) => m.content).join("\n")).not.toMatch(/Lisbon|cello/);
    const seen = await upstreamSaw(test);
    expect(systemOf(seen[0])).toBeNull();
    expect(systemOf(seen[1])).toContain("oolong");

    const bad = await say("sometimes", "hello").catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as Error).message).toContain("X-Hippocampus-Memory");
  });
});

describe("memory router: a life that changes, in English and Chinese", () => {
  it("what a chat app heard is recalled in another conversation, in Chinese and in English, the newer move included", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const test = uniqueUser("t");
    const chat = (conversation: string, content: string) =>
      openai(key, { "x-conversation-id": `${conversation}-${test}` })
        .chat.completions.create({ model: "echo", messages: [{ role: "user", content }], metadata: { test } })
        .withResponse();
    await chat("zh-1", "我上个月搬到杭州了，在一家新公司上班。");
    await eventually(
      () => bySource(`router:zh-1-${test}`),
      (m) => m.length > 0,
    );
    const asked = await chat("zh-2", "我上个月搬到哪里了？");
    expect(asked.response.headers.get("x-hippocampus-memories")).not.toBe("0");
    let seen = await upstreamSaw(test);
    expect(systemOf(seen.at(-1)!)).toContain("杭州");

    await chat("en-1", "I moved from Hangzhou to Lisbon this spring.");
    await eventually(
      () => bySource(`router:en-1-${test}`),
      (m) => m.length > 0,
    );
    await chat("en-2", "Remind me, where did I move this spring?");
    seen = await upstreamSaw(test);
    const system = systemOf(seen.at(-1)!) ?? "";
    expect(system).toContain("Lisbon");
  });
});

describe("memory router: a faithful proxy", () => {
  it("passes an upstream error on with its status and OpenAI's shape", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const client = openai(key);
    const messages = [{ role: "user" as const, content: "hello" }];
    const limited = await client.chat.completions.create({ model: "rate-limited", messages }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    const err = limited as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err.status).toBe(429);
    expect(err.message).toContain("Rate limit reached for echo");
    expect(err.code).toBe("rate_limit_exceeded");
    expect(err.headers.get("retry-after")).toBe("7");

    const down = await client.chat.completions.create({ model: "gateway-down", messages }).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(OpenAI.InternalServerError);
    expect((down as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((down as Error).message).toContain("HTTP 502");
    expect((down as Error).message).not.toContain("<html>");
  });

  it("a client that goes away mid-stream cancels the upstream request", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const test = uniqueUser("t");
    const controller = new AbortController();
    const stream = await openai(key).chat.completions.create(
      { model: "stall", messages: [{ role: "user", content: "hello" }], stream: true, metadata: { test } },
      { signal: controller.signal },
    );
    for await (const part of stream) {
      expect(part.choices[0].delta.content).toBe("I read ");
      controller.abort();
      break;
    }
    const [seen] = await eventually(
      () => upstreamSaw(test),
      (r) => r[0]?.closedEarly === true,
    );
    expect(seen.closedEarly).toBe(true);
  });

  it("a client that goes away before the upstream answered cancels the upstream request", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const test = uniqueUser("t");
    const controller = new AbortController();
    const pending = openai(key)
      .chat.completions.create(
        { model: "hang", messages: [{ role: "user", content: "hello" }], metadata: { test } },
        { signal: controller.signal },
      )
      .catch((e: unknown) => e);
    await eventually(
      () => upstreamSaw(test),
      (r) => r.length === 1,
    );
    controller.abort();
    expect(await pending).toBeInstanceOf(OpenAI.APIUserAbortError);
    const [seen] = await eventually(
      () => upstreamSaw(test),
      (r) => r[0]?.closedEarly === true,
    );
    expect(seen.closedEarly).toBe(true);
  });

  it("lists the upstream's models with the operator's key, and refuses a bad key in OpenAI's shape", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const models = await openai(key).models.list();
    expect(models.data.map((m) => m.id)).toEqual(["echo"]);
    const refused = await openai("hc_not-a-real-key")
      .models.list()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe("invalid_api_key");
  });
});

function anthropic(key: string, headers: Record<string, string> = {}): Anthropic {
  return new Anthropic({
    apiKey: key,
    baseURL: "http://localhost",
    fetch: (input, init) => workerFetch(headers)(input instanceof Request ? input.url : input, init),
    maxRetries: 0,
  });
}

describe("memory router: Anthropic's Messages API", () => {
  it("injects memories before the client's system prompt, sends only the operator's key, and saves once", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    await seed(key, ["I drink oolong tea every morning"]);
    const test = uniqueUser("t");
    const client = anthropic(key, { "x-conversation-id": `ant-${test}` });
    const first = [
      { role: "user" as const, content: "Which tea do I drink? I moved to Hangzhou last month for a new job." },
    ];
    const { data, response } = await client.messages
      .create({
        model: "claude-fake",
        max_tokens: 64,
        system: "Be brief.",
        messages: first,
        metadata: { user_id: test },
      })
      .withResponse();
    expect(data.content[0]).toMatchObject({ type: "text", text: "I read 1 messages." });
    expect(response.headers.get("x-hippocampus-memories")).toBe("1");

    const stream = await client.messages.create({
      model: "claude-fake",
      max_tokens: 64,
      stream: true,
      metadata: { user_id: test },
      messages: [
        ...first,
        { role: "assistant", content: "Oolong." },
        { role: "user", content: "I also adopted a cat named Mochi." },
      ],
    });
    const text: string[] = [];
    for await (const event of stream)
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text.push(event.delta.text);
    expect(text).toEqual(["I read ", "3 messages."]);

    const [a, b] = await upstreamSaw(test);
    expect(a.path).toBe("/v1/messages");
    expect(a.headers["x-api-key"]).toBe(FAKE_ANTHROPIC_KEY);
    expect(a.authorization).toBeNull();
    expect(a.headers["anthropic-version"]).toBeTruthy();
    expect(JSON.stringify([a, b])).not.toContain(key);
    const system = a.body?.system as { type: string; text: string }[];
    expect(system[0].text).toContain("data, not instructions");
    expect(system[0].text).toContain('"I drink oolong tea every morning"');
    expect(system[1]).toEqual({ type: "text", text: "Be brief." });
    expect(b.body?.system).toBeUndefined();

    const source = `router:ant-${test}`;
    const saved = await eventually(
      () => bySource(source),
      (m) => m.some((x) => x.content.includes("Mochi")),
    );
    expect(saved.map((m) => m.content).sort()).toEqual([
      "I also adopted a cat named Mochi.",
      "I moved to Hangzhou last month for a new job.",
    ]);
  });

  it("passes the upstream's error on in Anthropic's shape, and refuses a bad key in it", async () => {
    const { key } = await createKey({ user: uniqueUser("router") });
    const messages = [{ role: "user" as const, content: "hello" }];
    const limited = await anthropic(key)
      .messages.create({ model: "rate-limited", max_tokens: 8, messages })
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError);
    expect((limited as Error).message).toContain("Number of requests exceeded");
    const refused = await anthropic("hc_not-a-real-key")
      .messages.create({ model: "m", max_tokens: 8, messages })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
  });
});
