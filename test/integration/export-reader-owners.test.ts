/**
 * The export reader (storage/memories/d1-export-reader.ts) keeps to one owner: its count, its pages and the
 * events of a page. Owners share one user id across namespaces and accounts (a person, two apps'
 * end users, the person in another account) or differ by a separator; every one gets rows, and
 * forged events under another owner's memory id, and each export must show its own rows only.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import type { MemoryWrite } from "../../src/memory/ports";
import { indexTokens } from "../../src/memory/text/tokenize";
import type { Owner } from "../../src/memory/types";
import { D1ExportReader } from "../../src/storage/memories/d1-export-reader";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { collidingOwners, oddOwners } from "../helpers/odd-owners";

function writeOf(owner: Owner, id: string, content: string): MemoryWrite {
  const memory = buildMemory({ ...owner, actor: "test" }, id, `hash-${id}`, 1_700_000_000_000, {
    content,
    agentId: null,
  });
  return {
    memory,
    ftsTokens: indexTokens(content).join(" "),
    event: { memoryId: id, op: "create", before: null, after: memory, actor: "test", at: memory.createdAt },
  };
}

/** An event row of `owner` that names another owner's memory id: only `owner`'s export may show it. */
async function forgeEvent(owner: Owner, memoryId: string, actor: string): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO memory_events (memory_id, account_id, namespace, user_id, op, before, after, actor, at) VALUES (?, ?, ?, ?, 'update', NULL, NULL, ?, ?)",
  )
    .bind(memoryId, owner.accountId, owner.namespace, owner.userId, actor, 1_700_000_000_001)
    .run();
}

describe("export reader owners", () => {
  it("counts, pages and events of one owner only, among owners who share a user id across namespaces and accounts", async () => {
    const owners = [...collidingOwners("exp-own"), ...oddOwners("exp-own")];
    const ids = owners.map((_, i) => `exp-own-${i}-${crypto.randomUUID().slice(0, 8)}`);
    const repo = new D1MemoryRepo(env.DB);
    for (const [i, o] of owners.entries()) await repo.write(o, [writeOf(o, ids[i], `Marker ${ids[i]}`)], []);
    // Every owner also holds an event under the first owner's memory id (a collision the ids never make).
    for (const [j, o] of owners.entries()) if (j > 0) await forgeEvent(o, ids[0], `owner-${j}`);

    const reader = new D1ExportReader(env.DB);
    for (const [i, o] of owners.entries()) {
      const who = JSON.stringify(o);
      expect(await reader.count(o, { status: "all" }), who).toBe(1);
      const page = await reader.exportPage(o, { status: "all" }, null, 100);
      expect(
        page.map((m) => [m.id, m.content]),
        who,
      ).toEqual([[ids[i], `Marker ${ids[i]}`]]);
      const after = await reader.exportPage(o, { status: "all" }, { createdAt: 0, id: "" }, 100);
      expect(
        after.map((m) => m.id),
        who,
      ).toEqual([ids[i]]);
      const events = await reader.eventsOf(o, [ids[0]]);
      const actors = (events.get(ids[0]) ?? []).map((e) => e.actor);
      expect(actors, who).toEqual(i === 0 ? ["test"] : [`owner-${i}`]);
    }
  });
});
