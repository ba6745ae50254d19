/**
 * The purge's own predicate (storage/memories/d1-memory-purge.ts): handed ids of old rows of every status,
 * it deletes only tombstones (deleted, expired, superseded) older than the cutoff; an active or
 * quarantined row as old is kept, with its FTS row and history.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildMemory } from "../../src/memory/memory-factory";
import { indexTokens } from "../../src/memory/text/tokenize";
import type { Memory } from "../../src/memory/types";
import { D1MemoryRepo } from "../../src/storage/memories/d1-memory-repo";
import { uniqueUser } from "../helpers/api-keys";
import { ownerOf } from "../helpers/odd-owners";

const T = 1_600_000_000_000;
const STATUSES: Memory["status"][] = ["active", "quarantined", "deleted", "expired", "superseded"];

describe("purge predicate", () => {
  it("deletes only old tombstones among the ids it is handed", async () => {
    const owner = ownerOf(uniqueUser("purge"));
    const repo = new D1MemoryRepo(env.DB);
    const ids = STATUSES.map((s) => `purge-${s}-${crypto.randomUUID().slice(0, 8)}`);
    const writes = STATUSES.map((status, i) => {
      const base = buildMemory({ ...owner, actor: "test" }, ids[i], `hash-${ids[i]}`, T, {
        content: `Old ${status} row`,
        agentId: null,
      });
      const memory = { ...base, status, deletedAt: status === "active" || status === "quarantined" ? null : T };
      return {
        memory,
        ftsTokens: indexTokens(memory.content).join(" "),
        event: { memoryId: ids[i], op: "create" as const, before: null, after: memory, actor: "test", at: T },
      };
    });
    await repo.write(owner, writes, []);
    await repo.purge(owner, ids, "test", T + 2, T + 1);
    const kept = STATUSES.filter((_, i) => i < 2);
    for (const [i, status] of STATUSES.entries()) {
      const row = await repo.get(owner, ids[i]);
      expect(row?.status ?? "purged", status).toBe(kept.includes(status) ? status : "purged");
    }
  });
});
