/**
 * An app's end users live in the app's own namespace (never a person's
 * store, never another app's), and owner addresses are injective whatever the ids contain.
 */
import type { Client } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
type Listed = { memories: { id: string; content: string }[] };

async function idsRecalled(client: Client, query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const r = await callTool(client, "recall_memory", { query, limit: 10, ...extra });
  expect(r.isError, textOf(r)).toBeFalsy();
  return (r.structuredContent as Listed).memories.map((m) => m.id);
}

async function idsListed(client: Client, extra: Record<string, unknown> = {}): Promise<string[]> {
  const r = await callTool(client, "list_memories", { status: "all", limit: 100, ...extra });
  expect(r.isError, textOf(r)).toBeFalsy();
  return (r.structuredContent as Listed).memories.map((m) => m.id);
}

async function save(client: Client, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await callTool(client, "save_memory", { content, ...extra });
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent?.id as string;
}

describe("app namespaces", () => {
  it("an app key naming a person's user id reaches neither that person's store nor lets them see its users", async () => {
    const account = uniqueUser("acct");
    const person = uniqueUser("local");
    const operator = await connect((await createKey({ user: person, account })).key);
    const bot = await connect((await createKey({ app: "telegram", account })).key);
    const mine = await save(operator, "The operator's safe combination is 4-8-15");
    expect(await idsRecalled(bot, "safe combination", { user_id: person })).toEqual([]);
    expect(await idsListed(bot, { user_id: person })).toEqual([]);
    const del = await callTool(bot, "delete_memory", { id: mine, user_id: person });
    expect(del.structuredContent).toMatchObject({ deleted: [], not_found: [mine] });
    const theirs = await save(bot, "End user prefers replies in Portuguese", { user_id: person });
    expect(await idsListed(operator)).toEqual([mine]);
    expect(await idsRecalled(bot, "replies Portuguese", { user_id: person })).toEqual([theirs]);
  });

  it("two apps whose end-user ids collide keep two stores", async () => {
    const account = uniqueUser("acct");
    const telegram = await connect((await createKey({ app: "telegram", account })).key);
    const discord = await connect((await createKey({ app: "discord", account })).key);
    const t = await save(telegram, "Telegram user 12345 lives in Lisbon", { user_id: "12345" });
    const d = await save(discord, "Discord user 12345 lives in Osaka", { user_id: "12345" });
    expect(await idsListed(telegram, { user_id: "12345" })).toEqual([t]);
    expect(await idsListed(discord, { user_id: "12345" })).toEqual([d]);
    // A second key of the same app (rotation) serves the same end users.
    const telegram2 = await connect((await createKey({ app: "telegram", account })).key);
    expect(await idsListed(telegram2, { user_id: "12345" })).toEqual([t]);
  });
});

describe("injective owner addresses", () => {
  it("account `acme` + user `x:y` and account `acme:x` + user `y` are two owners", async () => {
    const acme = uniqueUser("acme");
    const first = await connect((await createKey({ account: acme, user: "x:y" })).key);
    const second = await connect((await createKey({ account: `${acme}:x`, user: "y" })).key);
    const a = await save(first, "First owner's locker code is 2231");
    const b = await save(second, "Second owner's locker code is 9910");
    expect(await idsRecalled(second, "locker code")).toEqual([b]);
    expect(await idsRecalled(first, "locker code")).toEqual([a]);
    expect(await idsListed(second)).toEqual([b]);
  });

  it("an idempotency key cannot replay another colliding owner's answer", async () => {
    const acme = uniqueUser("acme");
    const first = await connect((await createKey({ account: acme, user: "p:q" })).key);
    const second = await connect((await createKey({ account: `${acme}:p`, user: "q" })).key);
    const a = await callTool(first, "save_memory", { content: "Owner one's note", idempotency_key: "k-1" });
    const b = await callTool(second, "save_memory", { content: "Owner two's note", idempotency_key: "k-1" });
    expect(b.isError, textOf(b)).toBeFalsy();
    expect(b.structuredContent?.id).not.toBe(a.structuredContent?.id);
  });
});
