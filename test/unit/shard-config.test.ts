import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { chooseShard } from "../../src/shards/shard-placement";

const load = (vars: Record<string, string>) => loadConfig({ ...vars });

describe("shard config (docs/shards.md)", () => {
  it("defaults to the home database alone and parses a list with weights", () => {
    expect(load({}).MEMORY_SHARDS).toEqual(["DB"]);
    const config = load({ MEMORY_SHARDS: '["DB","DB_SHARD_1"]', SHARD_WEIGHTS: '{"DB":0}' });
    expect(config.MEMORY_SHARDS).toEqual(["DB", "DB_SHARD_1"]);
    expect(config.SHARD_WEIGHTS).toEqual({ DB: 0 });
  });

  it("refuses, naming the setting and the rule", () => {
    expect(() => load({ MEMORY_SHARDS: "DB,DB_SHARD_1" })).toThrow(/MEMORY_SHARDS: must be a JSON array/);
    expect(() => load({ MEMORY_SHARDS: '["DB_SHARD_1","DB"]' })).toThrow(/first shard must be the home database "DB"/);
    expect(() => load({ MEMORY_SHARDS: '["DB","DB"]' })).toThrow(/listed twice/);
    expect(() => load({ MEMORY_SHARDS: '["DB","db-2"]' })).toThrow(/MEMORY_SHARDS.1: each entry is a D1 binding name/);
    expect(() => load({ MEMORY_SHARDS: '["DB"]', SHARD_WEIGHTS: '{"DB_SHARD_9":1}' })).toThrow(
      /SHARD_WEIGHTS: "DB_SHARD_9" is not in MEMORY_SHARDS/,
    );
    expect(() => load({ MEMORY_SHARDS: '["DB","DB_SHARD_1"]', SHARD_WEIGHTS: '{"DB":0,"DB_SHARD_1":0}' })).toThrow(
      /no shard would take a new account/,
    );
    expect(() => load({ ADMIN_SECRET: "short" })).toThrow(/ADMIN_SECRET: must be at least 32 characters/);
  });

  it("places by bytes per weight, the first listed on a tie, never on a closed shard", () => {
    const equal = [
      { binding: "DB", bytes: 1000 },
      { binding: "DB_SHARD_1", bytes: 1000 },
    ];
    expect(chooseShard(equal, {})).toBe("DB");
    expect(chooseShard(equal, { DB: 0.5 })).toBe("DB_SHARD_1");
    expect(
      chooseShard(
        [
          { binding: "DB", bytes: 1 },
          { binding: "DB_SHARD_1", bytes: 9e9 },
        ],
        { DB: 0 },
      ),
    ).toBe("DB_SHARD_1");
    expect(() => chooseShard(equal, { DB: 0, DB_SHARD_1: 0 })).toThrow(/closes every shard/);
  });
});
