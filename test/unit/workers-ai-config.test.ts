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
