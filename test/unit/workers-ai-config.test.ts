/** Config refuses Workers AI model names the installed workers-types no longer list. */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { DEFAULT_LLM_MODEL } from "../../src/providers/workers-ai-models";

describe("Workers AI model names in config", () => {
  it("defaults to a current chat model", () => {
    expect(loadConfig({}).LLM_MODEL).toBe(DEFAULT_LLM_MODEL);
    expect(loadConfig({ LLM_PROVIDER: "workers-ai" }).LLM_MODEL).toBe("@cf/zai-org/glm-4.7-flash");
  });

  it.each([
    [{ LLM_PROVIDER: "workers-ai", LLM_MODEL: "@cf/meta/llama-3.1-8b-instruct" }, /LLM_MODEL.*not a Workers AI model/],
    [{ LLM_PROVIDER: "workers-ai", LLM_MODEL: "@cf/zai-org/glm-4.7-flsh" }, /LLM_MODEL.*glm-4\.7-flash/],
    [{ EMBEDDING_PROVIDER: "workers-ai", EMBEDDING_MODEL: "local-hash-v1" }, /EMBEDDING_MODEL.*@cf\/baai\/bge-m3/],
    [{ RERANKER: "workers-ai", RERANKER_MODEL: "@cf/baai/bge-reranker-v9" }, /RERANKER_MODEL/],
  ])("refuses %o at startup with the setting named", (vars, message) => {
    expect(() => loadConfig(vars)).toThrow(message);
  });

  it("does not check model names of the offline adapters", () => {
    expect(loadConfig({ LLM_PROVIDER: "rules", LLM_MODEL: "rules-v1" }).LLM_MODEL).toBe("rules-v1");
  });
});

describe("local index size check", () => {
  it("refuses the local index with 1024-d vectors unless LOCAL_INDEX_MAX_VECTORS bounds it", () => {
    const bge = { EMBEDDING_PROVIDER: "workers-ai", EMBEDDING_MODEL: "@cf/baai/bge-m3", VECTOR_INDEX: "local" };
    expect(() => loadConfig(bge)).toThrow(/LOCAL_INDEX_MAX_VECTORS.*1024-dimension.*VECTOR_INDEX=vectorize/);
    expect(() => loadConfig({ VECTOR_INDEX: "local", EMBEDDING_DIMENSIONS: "768" })).toThrow(/LOCAL_INDEX_MAX_VECTORS/);
    expect(loadConfig({ ...bge, LOCAL_INDEX_MAX_VECTORS: "20000" }).LOCAL_INDEX_MAX_VECTORS).toBe(20_000);
    expect(() => loadConfig({ ...bge, LOCAL_INDEX_MAX_VECTORS: "100000" })).toThrow(/exceeds the 48 MiB/);
  });

  it("leaves the offline default (384-d hash embedder) and Vectorize alone", () => {
    expect(loadConfig({ VECTOR_INDEX: "local" }).LOCAL_INDEX_MAX_VECTORS).toBe(0);
    expect(
      loadConfig({ EMBEDDING_PROVIDER: "workers-ai", EMBEDDING_MODEL: "@cf/baai/bge-m3", VECTOR_INDEX: "vectorize" })
        .VECTOR_INDEX,
    ).toBe("vectorize");
  });
});
