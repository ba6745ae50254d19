/**
 * migrations/0006_owner_namespace.sql moves rows written before namespaces
 * existed to the right owner. Rows are written here exactly as the previous code wrote them
 * (namespace column at its default, FTS owner "account:user"), then the migration's data statements
 * run again, and the memories are checked through the real MCP tools.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ownerAddress } from "../../src/memory/owner-address";
import { indexTokens } from "../../src/memory/text/tokenize";
import { createKey, uniqueUser } from "../helpers/api-keys";
import { rerunFtsOwnerBlocks } from "../helpers/fts-owner-blocks";
import { callTool, textOf, trackedConnect } from "../helpers/mcp-client";

const connect = trackedConnect();
type Listed = { memories: { id: string }[] };

/** One memory as the pre-namespace code stored it: row, FTS row keyed "account:user", create event. */
async function legacyMemory(account: string, user: string, id: string, content: string, actor: string, derived = "[]") {
  const legacyOwner = `${account}:${user}`;
  const at = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO memories (id, account_id, user_id, content, content_hash, created_at, updated_at, derived_from, indexed_at, embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'local-hash')",
    ).bind(id, account, user, content, `hash-${id}`, at, at, derived, at),
    env.DB.prepare(
      "INSERT INTO memories_fts (tokens, context, owner_key, memory_id, owner) VALUES (?, '', lower(hex(?)), ?, ?)",
    ).bind(indexTokens(content).join(" "), legacyOwner, id, legacyOwner),
    env.DB.prepare(
      "INSERT INTO memory_events (memory_id, account_id, user_id, op, actor, at) VALUES (?, ?, ?, 'create', ?, ?)",
    ).bind(id, account, user, actor, at),
  ]);
}

/** The data statements of migration 0006 (its ALTER TABLEs already ran when the test DB was made). */
async function rerunMigration(): Promise<void> {
  const migration = env.TEST_MIGRATIONS!.find((m) => m.name.startsWith("0006_"));
  expect(migration, "migration 0006 exists").toBeDefined();
  const statements = migration!.queries.filter((q) => !/^\s*ALTER TABLE/i.test(q.replace(/--[^\n]*\n/g, "")));
  expect(statements.length).toBeGreaterThan(3);
  // 0008 adds each FTS row's own token to the owner token 0006 just rewrote (as a deploy runs them).
  const rowKeys = env.TEST_MIGRATIONS!.find((m) => m.name.startsWith("0008_"))!.queries;
  await env.DB.batch([...statements, ...rowKeys].map((q) => env.DB.prepare(q)));
  // 0011 puts each owner's FTS rows (the legacy ones, written without a block) in its block of rowids.
  await rerunFtsOwnerBlocks();
}

describe("migration 0006: owner namespaces", () => {
  it("puts an app's old rows in the app's namespace and a person's in theirs", async () => {
    const account = uniqueUser("mig");
    const user = "12345";
    const personKey = await createKey({ account, user });
    const appKey = await createKey({ account, app: "legacy-bot" });
    const uid = () => `01MIG${crypto.randomUUID().replace(/-/g, "").slice(0, 21).toUpperCase()}`;
    const [personal, botRow, derived, purged] = [uid(), uid(), uid(), uid()];
    await legacyMemory(
      account,
      user,
      personal,
      "Owner keeps the spare key under the blue flowerpot",
      `key:${personKey.id}`,
    );
    await legacyMemory(account, user, botRow, "Chat user asked for parcel delivery on Fridays", `key:${appKey.id}`);
    await legacyMemory(account, user, derived, "Parcel deliveries happen weekly", "cron", JSON.stringify([botRow]));
    await env.DB.prepare(
      "INSERT INTO memory_events (memory_id, account_id, user_id, op, actor, at) VALUES (?, ?, ?, 'purge', ?, ?)",
    )
      .bind(purged, account, user, `key:${appKey.id}`, Date.now())
      .run();

    await rerunMigration();

    const ns = async (id: string) =>
      (await env.DB.prepare("SELECT namespace, indexed_at FROM memories WHERE id = ?").bind(id).first()) as {
        namespace: string;
        indexed_at: number | null;
      };
    expect((await ns(personal)).namespace).toBe("user");
    expect((await ns(botRow)).namespace).toBe("app:legacy-bot");
    expect((await ns(derived)).namespace).toBe("app:legacy-bot");
    expect((await ns(botRow)).indexed_at, "re-indexed under the new owner by the repair job").toBeNull();
    const event = await env.DB.prepare("SELECT namespace FROM memory_events WHERE memory_id = ?")
      .bind(purged)
      .first<{ namespace: string }>();
    expect(event?.namespace).toBe("app:legacy-bot");
    const fts = await env.DB.prepare("SELECT owner FROM memories_fts WHERE memory_id = ?")
      .bind(botRow)
      .first<{ owner: string }>();
    expect(fts?.owner).toBe(ownerAddress({ accountId: account, namespace: "app:legacy-bot", userId: user }));

    const person = await connect(personKey.key);
    const bot = await connect(appKey.key);
    const listed = async (client: typeof person, extra: Record<string, unknown> = {}) => {
      const r = await callTool(client, "list_memories", { limit: 50, ...extra });
      expect(r.isError, textOf(r)).toBeFalsy();
      return (r.structuredContent as Listed).memories.map((m) => m.id).sort();
    };
    expect(await listed(person)).toEqual([personal]);
    expect(await listed(bot, { user_id: user })).toEqual([botRow, derived].sort());
    const recall = async (client: typeof person, query: string, extra: Record<string, unknown> = {}) => {
      const r = await callTool(client, "recall_memory", { query, limit: 10, ...extra });
      return (r.structuredContent as Listed).memories.map((m) => m.id);
    };
    expect(await recall(bot, "delivery on Fridays", { user_id: user })).toContain(botRow);
    expect(await recall(bot, "spare key flowerpot", { user_id: user })).toEqual([]);
    expect(await recall(person, "spare key flowerpot")).toEqual([personal]);
    expect(await recall(person, "delivery on Fridays")).toEqual([]);
  });
});
