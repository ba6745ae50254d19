/**
 * The dev-only embedder fault (providers/dev-fault-embedder.ts): ignored by the production config
 * even with both flags added, honoured with the local index and DEV_FAULTS=on for the local and the
 * Workers AI embedder alike, failing the way the Workers AI adapter reports an outage.
 */
import { describe, expect, it } from "vitest";
import { buildEmbedder } from "../../src/composition";
import { loadConfig } from "../../src/config";
import type { Env } from "../../src/env";
import { MemoryError } from "../../src/memory/errors";
import type { Embedder } from "../../src/memory/ports";
import { DevFaultEmbedder, embedderFaultUntil, withEmbedderFault } from "../../src/providers/dev-fault-embedder";
import wranglerToml from "../../wrangler.toml?raw";
import { FakeEmbeddingAi } from "../helpers/fake-ai";

const FUTURE = String(Date.now() + 3_600_000);

/** The [env.production.vars] table of wrangler.toml, as NAME -> value. */
function productionVars(): Record<string, string> {
  const section = wranglerToml.split(/^\[env\.production\.vars\]$/m)[1].split(/^\[/m)[0];
  return Object.fromEntries([...section.matchAll(/^(\w+)\s*=\s*"([^"]*)"/gm)].map((m) => [m[1], m[2]]));
}

function fakeEmbedder(): Embedder & { calls: number } {
  return {
    model: "fake",
    dimensions: 2,
    calls: 0,
    async embed(texts) {
      this.calls++;
      return texts.map(() => Float32Array.from([1, 0]));
    },
  };
}

describe("the dev-only embedder fault", () => {
  it("is ignored by the production config even when both fault vars are added to it", () => {
    const prod = productionVars();
    expect(prod.VECTOR_INDEX).toBe("vectorize");
    expect(Object.keys(prod).filter((k) => k.startsWith("DEV_"))).toEqual([]);
    const config = loadConfig({ ...prod, DEV_FAULTS: "on", DEV_FAULT_EMBEDDER_UNTIL: FUTURE });
    expect(embedderFaultUntil(config)).toBeNull();
    const embedder = fakeEmbedder();
    expect(withEmbedderFault(embedder, config)).toBe(embedder);
  });

  it("is ignored with the local index unless DEV_FAULTS=on", () => {
    const config = loadConfig({ VECTOR_INDEX: "local", DEV_FAULT_EMBEDDER_UNTIL: FUTURE });
    expect(embedderFaultUntil(config)).toBeNull();
  });

  it("fails every call inside the window as provider_unavailable and passes through after it", async () => {
    let now = 999;
    const inner = fakeEmbedder();
    const embedder = new DevFaultEmbedder(inner, 1000, () => now);
    expect([embedder.model, embedder.dimensions]).toEqual(["fake", 2]);
    const failure = await embedder.embed(["a"]).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MemoryError);
    expect((failure as MemoryError).code).toBe("provider_unavailable");
    expect(inner.calls).toBe(0);
    now = 1000;
    await expect(embedder.embed(["a", "b"])).resolves.toHaveLength(2);
    expect(inner.calls).toBe(1);
  });

  it("wraps the local and the Workers AI embedder the composition root builds", async () => {
    const local = buildEmbedder(
      {} as Env,
      loadConfig({ VECTOR_INDEX: "local", DEV_FAULTS: "on", DEV_FAULT_EMBEDDER_UNTIL: FUTURE }),
    );
    await expect(local.embed(["tea"])).rejects.toThrow(/DEV_FAULTS fault window/);
    const ai = new FakeEmbeddingAi((texts) => ({
      shape: [texts.length, 1024],
      data: texts.map(() => new Array(1024).fill(0.1)),
    }));
    const remote = buildEmbedder(
      { AI: ai } as unknown as Env,
      loadConfig({
        VECTOR_INDEX: "local",
        EMBEDDING_PROVIDER: "workers-ai",
        EMBEDDING_MODEL: "@cf/baai/bge-m3",
        LOCAL_INDEX_MAX_VECTORS: "1000",
        DEV_FAULTS: "on",
        DEV_FAULT_EMBEDDER_UNTIL: FUTURE,
      }),
    );
    await expect(remote.embed(["tea"])).rejects.toThrow(/DEV_FAULTS fault window/);
    expect(ai.calls).toHaveLength(0);
    const past = buildEmbedder(
      {} as Env,
      loadConfig({ VECTOR_INDEX: "local", DEV_FAULTS: "on", DEV_FAULT_EMBEDDER_UNTIL: "1000" }),
    );
    await expect(past.embed(["tea"])).resolves.toHaveLength(1);
  });
});
