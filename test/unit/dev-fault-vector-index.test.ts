import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import type { VectorIndex } from "../../src/memory/ports";
import type { Owner } from "../../src/memory/types";
import { DevFaultVectorIndex, vectorFaultUntil, withDevFault } from "../../src/storage/vectors/dev-fault-vector-index";
import wranglerToml from "../../wrangler.toml?raw";

const FUTURE = String(Date.now() + 3_600_000);
const owner = { accountId: "a", userId: "u" } as Owner;

/** The [env.production.vars] table of wrangler.toml, as NAME -> value. */
function productionVars(): Record<string, string> {
  const section = wranglerToml.split(/^\[env\.production\.vars\]$/m)[1].split(/^\[/m)[0];
  return Object.fromEntries([...section.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));
}

function fakeIndex(): VectorIndex & { calls: number } {
  return {
    kind: "local",
    eventual: false,
    calls: 0,
    async upsert() {
      this.calls++;
    },
    async query() {
      this.calls++;
      return [{ id: "m1", score: 1 }];
    },
    async remove() {
      this.calls++;
    },
  };
}

describe("the dev-only vector index fault", () => {
  it("is ignored by the production config even when both fault vars are added to it", () => {
    const prod = productionVars();
    expect(prod.VECTOR_INDEX).toBe("vectorize");
    expect(Object.keys(prod).filter((k) => k.startsWith("DEV_"))).toEqual([]);
    const config = loadConfig({ ...prod, DEV_FAULTS: "on", DEV_FAULT_VECTOR_INDEX_UNTIL: FUTURE });
    expect(vectorFaultUntil(config)).toBeNull();
    const index = fakeIndex();
    expect(withDevFault(index, config)).toBe(index);
  });

  it("is ignored with the local index unless DEV_FAULTS=on", () => {
    const config = loadConfig({ VECTOR_INDEX: "local", DEV_FAULT_VECTOR_INDEX_UNTIL: FUTURE });
    expect(vectorFaultUntil(config)).toBeNull();
  });

  it("fails every call of the local index inside the window and passes through after it", async () => {
    const config = loadConfig({ VECTOR_INDEX: "local", DEV_FAULTS: "on", DEV_FAULT_VECTOR_INDEX_UNTIL: "1000" });
    expect(vectorFaultUntil(config)).toBe(1000);
    let now = 999;
    const inner = fakeIndex();
    const index = new DevFaultVectorIndex(inner, 1000, () => now);
    await expect(index.query(owner, new Float32Array(2), 5)).rejects.toThrow(/unavailable/);
    await expect(index.upsert(owner, [])).rejects.toThrow(/unavailable/);
    await expect(index.remove(owner, ["m1"])).rejects.toThrow(/unavailable/);
    expect(inner.calls).toBe(0);
    now = 1000;
    await expect(index.query(owner, new Float32Array(2), 5)).resolves.toEqual([{ id: "m1", score: 1 }]);
    expect(inner.calls).toBe(1);
  });
});
