/**
 * A Vectorize index per shard (VECTORIZE_BY_SHARD, docs/shards.md "Vectorize past 10 M vectors"): the
 * binding each shard's owners use, and a crossing to a shard with another index, in the "shards"
 * vitest project (real D1 per binding): after the switch the owner's memories on the target are marked
 * unindexed page by page (`indexed_at` NULL: what the index repair embeds, into the target's index) and their vectors
 * leave the source's index, another owner's vectors staying; writes are not held meanwhile. With one
 * index for both shards nothing is reindexed.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardVectorize } from "../../src/composition";
import { loadConfig, sameVectorIndex, vectorizeBindingOf } from "../../src/config";
import type { Env } from "../../src/env";
import { vectorizeHeadroom } from "../../src/http/health";
import type { Scope } from "../../src/memory/types";
import { ownerSums } from "../../src/shards/d1-owner-rows";
import { UNINDEX_PAGE } from "../../src/shards/d1-unindex-owner";
import type { ShardHome } from "../../src/shards/shard-placement";
import { type CrossingState, relocateOwner } from "../../src/shards/shard-relocation";
import { VectorizeVectorIndex } from "../../src/storage/vectors/vectorize-vector-index";
import { uniqueUser } from "../helpers/api-keys";
import { FakeVectorize } from "../helpers/fake-vectorize";
import { ok, stubOf } from "../helpers/lifecycle";

const shards: ShardHome[] = [
  { binding: "DB", db: env.DB },
  { binding: "DB_SHARD_1", db: env.DB_SHARD_1! },
];

const owner = (): Scope => ({ accountId: uniqueUser("vacct"), namespace: "user", userId: uniqueUser(), actor: "test" });

async function seeded(o: Scope, n: number): Promise<{ from: ShardHome; to: ShardHome; ids: string[] }> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await ok(stubOf(o).save(o, { content: `Item ${i}: keeps jar ${i * 7919} of quince jam on shelf ${i}` }));
    if (r.id) ids.push(r.id);
  }
  const onDb = ((await ownerSums(env.DB, o)).memories?.rows ?? 0) > 0;
  return { from: onDb ? shards[0] : shards[1], to: onDb ? shards[1] : shards[0], ids };
}

const embedded = async (db: D1Database, o: Scope) =>
  (
    await db
      .prepare(
        "SELECT count(*) AS n FROM memories WHERE account_id = ? AND namespace = ? AND user_id = ? AND indexed_at IS NOT NULL",
      )
      .bind(o.accountId, o.namespace, o.userId)
      .first<{ n: number }>()
  )?.n ?? 0;

async function moveAll(o: Scope, from: ShardHome, to: ShardHome, sourceIndex: VectorizeVectorIndex | null) {
  let state: CrossingState | null = null;
  let current = from;
  const held: boolean[] = [];
  for (let step = 0; step < 100; step++) {
    const r = await relocateOwner({
      owner: o,
      current,
      from,
      to,
      home: env.DB,
      store: { get: async () => state, put: async (s) => void (state = s) },
      callsLeft: () => 1000,
      maxRows: 100_000,
      holdWrites: (on) => held.push(on),
      switchTo: (home) => void (current = home),
      sourceIndex,
    });
    if (r.status !== "partial") return { report: r, held };
  }
  throw new Error("the move did not finish");
}

describe("a Vectorize index per shard", () => {
  it("names each shard's binding: VECTORIZE_BY_SHARD, else VECTORIZE", () => {
    const config = loadConfig({
      ...env,
      VECTOR_INDEX: "vectorize",
      VECTORIZE_BY_SHARD: '{"DB_SHARD_1":"VECTORIZE_SHARD_1"}',
    });
    expect(vectorizeBindingOf(config, "DB")).toBe("VECTORIZE");
    expect(vectorizeBindingOf(config, "DB_SHARD_1")).toBe("VECTORIZE_SHARD_1");
    expect(sameVectorIndex(config, "DB", "DB_SHARD_1")).toBe(false);
    expect(sameVectorIndex(loadConfig({ ...env, VECTOR_INDEX: "vectorize" }), "DB", "DB_SHARD_1")).toBe(true);
    expect(() => shardVectorize(env, config, "DB_SHARD_1")).toThrow(/VECTORIZE_SHARD_1/);
    expect(() => loadConfig({ ...env, VECTORIZE_BY_SHARD: '{"DB_SHARD_9":"VECTORIZE_9"}' })).toThrow(
      /VECTORIZE_BY_SHARD.*"DB_SHARD_9" is not in MEMORY_SHARDS/,
    );
  });

  it("a crossing to another index unindexes the owner on the target and empties the source's index of it", async () => {
    const o = owner();
    const other = owner();
    const n = UNINDEX_PAGE + 5; // two pages
    const { from, to, ids } = await seeded(o, n);
    expect(ids).toHaveLength(n);
    const fake = new FakeVectorize();
    const source = new VectorizeVectorIndex(fake as unknown as VectorizeIndex);
    const vector = (i: number) => Float32Array.from({ length: 4 }, (_, d) => (d === i % 4 ? 1 : 0));
    await source.upsert(
      o,
      ids.map((id, i) => ({ id, vector: vector(i) })),
    );
    await source.upsert(other, [{ id: "01OTHEROWNERVECTOR00000000", vector: vector(0) }]);
    fake.flush();
    expect(fake.size).toBe(n + 1);
    expect(await embedded(from.db, o)).toBe(n);

    const { report, held } = await moveAll(o, from, to, source);
    fake.flush();
    expect(report.status).toBe("moved");
    expect(await embedded(to.db, o)).toBe(0);
    expect((await ownerSums(to.db, o)).memories?.rows).toBe(n);
    expect(fake.size).toBe(1);
    expect(fake.metadataOf("01OTHEROWNERVECTOR00000000")).toBeDefined();
    // Writes were held until the switch only: the reindex runs with them released.
    expect(held.at(-1)).toBe(false);
  });

  it("unindexes the moving owner only, not a sibling of the same account and user id in another namespace", async () => {
    const o = owner();
    const sibling: Scope = { ...o, namespace: "app:bot" };
    const { from, to } = await seeded(o, 3);
    await ok(stubOf(sibling).save(sibling, { content: "The bot keeps the quince jam recipe on card 12" }));
    // The sibling crosses first, keeping its vectors (one index); then the owner, to another index.
    expect((await moveAll(sibling, from, to, null)).report.status).toBe("moved");
    expect(await embedded(to.db, sibling)).toBe(1);
    const fake = new FakeVectorize();
    expect(
      (await moveAll(o, from, to, new VectorizeVectorIndex(fake as unknown as VectorizeIndex))).report.status,
    ).toBe("moved");
    expect(await embedded(to.db, o)).toBe(0);
    expect(await embedded(to.db, sibling)).toBe(1);
  });

  it("with one index for both shards, the vectors stay and nothing is unindexed", async () => {
    const o = owner();
    const { from, to } = await seeded(o, 3);
    const { report } = await moveAll(o, from, to, null);
    expect(report.status).toBe("moved");
    expect(await embedded(to.db, o)).toBe(3);
  });

  it("/health shows each index's vectors against the 10 M one index holds, and a missing binding", async () => {
    const config = loadConfig({
      ...env,
      VECTOR_INDEX: "vectorize",
      VECTORIZE_BY_SHARD: '{"DB_SHARD_1":"VECTORIZE_SHARD_1"}',
    });
    const withIndex = {
      ...env,
      VECTORIZE: { describe: async () => ({ vectorCount: 2_500_000, dimensions: 1024 }) },
    } as unknown as Env;
    expect(await vectorizeHeadroom(withIndex, config)).toEqual([
      {
        binding: "VECTORIZE",
        shards: ["DB"],
        status: "ok",
        vectors: 2_500_000,
        limit: 10_000_000,
        used: 0.25,
        stored_dimensions: 2_560_000_000,
      },
      {
        binding: "VECTORIZE_SHARD_1",
        shards: ["DB_SHARD_1"],
        status: "missing binding",
        vectors: null,
        limit: 10_000_000,
      },
    ]);
    expect(await vectorizeHeadroom(env, loadConfig(env))).toEqual([]);
    // Workers Free caps the account's stored dimensions at 5 M: 4,000 vectors of 1,024 are 82% of it.
    const free = loadConfig({ ...env, VECTOR_INDEX: "vectorize", PLATFORM_LIMITS: "free" });
    const small = {
      ...env,
      VECTORIZE: { describe: async () => ({ vectorCount: 4_000, dimensions: 1024 }) },
    } as unknown as Env;
    expect((await vectorizeHeadroom(small, free))[0]).toMatchObject({
      stored_dimensions: 4_096_000,
      stored_dimensions_limit: 5_000_000,
      stored_dimensions_used: 0.819,
    });
  });
});
