/**
 * A shard move while the embedding model is down, in the "shards" vitest project (two real D1s, the
 * owner's real Durable Object): the copy needs no model, so the memories saved during the outage —
 * stored unindexed, with their FTS rows — cross with everything else, keyword recall finds them on
 * the target, and index repair there indexes them once the model answers.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Scope } from "../../src/memory/types";
import { D1ShardDirectory } from "../../src/shards/d1-shard-directory";
import { moveAccountStep } from "../../src/shards/move-account";
import { uniqueUser } from "../helpers/api-keys";
import { type Outage, outageEmbedder } from "../helpers/embedder-outage";
import { ok, overrideDeps, stubOf } from "../helpers/lifecycle";

const SHARD = env.DB_SHARD_1!;
const POLICY = { retentionDays: 30, retentionRules: [], halfLifeDays: 30, batchSize: 100 };

async function unindexedOn(db: D1Database, owner: Scope): Promise<number | null> {
  return db
    .prepare("SELECT count(*) AS n FROM memories WHERE account_id = ? AND user_id = ? AND indexed_at IS NULL")
    .bind(owner.accountId, owner.userId)
    .first<number>("n");
}

describe("moving an account during an embedding outage", () => {
  it("moves the unindexed memories with the rest; repair on the target indexes them", async () => {
    const account = `acct-outage-${uniqueUser()}`;
    await new D1ShardDirectory(env.DB).place(account, "DB", Date.now());
    const owner: Scope = { accountId: account, namespace: "user", userId: uniqueUser(), actor: "test" };
    const stub = stubOf(owner);
    const outage: Outage = { down: false, failedCalls: 0 };
    for (const content of ["Rows a skiff on Saturdays", "Grows chillies on the balcony", "Reads Icelandic sagas"])
      await ok(stub.save(owner, { content }));
    await overrideDeps(owner, (deps) => ({ embedder: outageEmbedder(deps.embedder, "throws", outage) }));
    outage.down = true;
    const during = await ok(stub.save(owner, { content: "My neighbour Saga keeps two ferrets" }));
    expect(during).toMatchObject({ status: "created", memory: { indexedAt: null } });

    let step = await moveAccountStep(env, account, "DB_SHARD_1", 10);
    for (let i = 0; !step.done && i < 10; i++) step = await moveAccountStep(env, account, "DB_SHARD_1", 10);
    expect(step.done).toBe(true);
    const late = await ok(stub.save(owner, { content: "The ferrets are called Pip and Moss" }));
    expect(late.memory?.indexedAt).toBeNull();
    expect(await unindexedOn(SHARD, owner)).toBe(2);
    expect(await unindexedOn(env.DB, owner)).toBe(0);
    const recalled = async (query: string) =>
      (await ok(stub.recall(owner, { query, limit: 5 }))).results.map((r) => r.memory.id);
    expect(await recalled("my neighbour")).toContain(during.id);
    expect(await recalled("Pip and Moss")).toContain(late.id);

    outage.down = false;
    await ok(
      stub.maintain(owner, {
        now: Date.now(),
        jobs: ["repair"],
        policy: POLICY,
        budget: { maxMs: 10_000, maxRows: 100 },
      }),
    );
    expect(await unindexedOn(SHARD, owner)).toBe(0);
  });
});
