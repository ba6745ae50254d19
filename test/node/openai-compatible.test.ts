/**
 * The OpenAI-compatible embedder and Llm against a real local HTTP server shaped by the OpenAI API
 * (test/helpers/fake-openai-server.ts): batching, the Bearer key, vector order and normalisation,
 * the JSON-schema chat request; and every failure — an error status, no answer, unreachable, a body
 * that is not JSON, wrong dimensions, too few vectors, an off-schema answer — degrading as Workers AI
 * does: the embedder throws provider_unavailable (never with the server's text), the Llm answers
 * exactly as the rules do, logging no memory text.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { MemoryError } from "../../src/memory/errors";
import type { ConflictCandidate, Logger } from "../../src/memory/ports";
import { PROBE_EVERY_MS, probeEmbedder } from "../../src/providers/openai-compatible/embedder-probe";
import { OpenAiCompatibleEmbedder } from "../../src/providers/openai-compatible/openai-compatible-embedder";
import { OpenAiCompatibleLlm } from "../../src/providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "../../src/providers/rules-llm";
import { expectedVector, FakeOpenAiServer } from "../helpers/fake-openai-server";

const DIMS = 16;
const SECRET_TEXT = "my bank PIN hint is the dog's name";
const server = new FakeOpenAiServer(DIMS);

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.mode = "ok";
  server.requests.length = 0;
});

const embedder = (apiKey?: string, timeoutMs = 2_000) =>
  new OpenAiCompatibleEmbedder({ baseUrl: server.baseUrl, apiKey }, "bge-m3", DIMS, timeoutMs);

async function failure(work: Promise<unknown>): Promise<MemoryError> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MemoryError);
  expect((err as MemoryError).code).toBe("provider_unavailable");
  expect((err as MemoryError).message).not.toContain(SECRET_TEXT);
  return err as MemoryError;
}

describe("OpenAI-compatible embedder", () => {
  it("embeds in batches of 100, in input order, L2-normalised, with the Bearer key and the model", async () => {
    const texts = Array.from({ length: 250 }, (_, i) => `memory number ${i}`);
    const vectors = await embedder("sk-test").embed(texts);
    expect(server.requests.map((r) => [r.path, (r.body.input as string[]).length])).toEqual([
      ["/v1/embeddings", 100],
      ["/v1/embeddings", 100],
      ["/v1/embeddings", 50],
    ]);
    expect(server.requests.every((r) => r.authorization === "Bearer sk-test" && r.body.model === "bge-m3")).toBe(true);
    expect(vectors).toHaveLength(250);
    for (const i of [0, 99, 100, 249]) {
      const want = expectedVector(texts[i], DIMS);
      Array.from(vectors[i]).forEach((x, d) => expect(x).toBeCloseTo(want[d], 5));
    }
  });

  it("sends no Authorization header without a key (Ollama)", async () => {
    await embedder().embed(["hello"]);
    expect(server.requests[0].authorization).toBeUndefined();
  });

  it("an error status, a body that is not JSON, too few vectors: provider_unavailable without the server's text", async () => {
    server.mode = "error";
    expect((await failure(embedder().embed([SECRET_TEXT]))).message).toMatch(/bge-m3 is unavailable: HTTP 500/);
    server.mode = "not-json";
    expect((await failure(embedder().embed([SECRET_TEXT]))).message).toMatch(/not JSON/);
    server.mode = "too-few";
    expect((await failure(embedder().embed(["a", "b"]))).message).toMatch(/returned 1 vectors for 2 texts/);
  });

  it("gives up after its timeout and when the server is unreachable", async () => {
    server.mode = "hang";
    expect((await failure(embedder(undefined, 150).embed(["x"]))).message).toMatch(/no answer within 150 ms/);
    const closed = new OpenAiCompatibleEmbedder({ baseUrl: "http://127.0.0.1:9/v1" }, "bge-m3", DIMS, 2_000);
    expect((await failure(closed.embed(["x"]))).message).toMatch(/unreachable/);
  });

  it("refuses vectors of another size, naming the setting to change", async () => {
    server.mode = "wrong-dims";
    const err = await failure(embedder().embed(["x"]));
    expect(err.message).toBe(
      `Embedding model bge-m3 returns ${DIMS / 2}-dimension vectors but EMBEDDING_DIMENSIONS is ${DIMS}: set EMBEDDING_DIMENSIONS=${DIMS / 2} (the vector index must be built for ${DIMS / 2}) or use a model that returns ${DIMS}`,
    );
  });
});

const candidates: ConflictCandidate[] = [
  { handle: 1, content: "I live in Shanghai", category: "personal" },
  { handle: 2, content: "My favorite color is blue", category: "preference" },
];
const transcript = [
  { role: "user", content: "I drink oolong tea. I am moving to Hangzhou next month." },
  { role: "assistant", content: "Noted" },
];

function llm(timeoutMs = 2_000) {
  const logged: string[] = [];
  const log: Logger = {
    warn: (m, data) => logged.push(JSON.stringify({ m, ...data })),
    error: (m, data) => logged.push(JSON.stringify({ m, ...data })),
  };
  const model = new OpenAiCompatibleLlm(
    { baseUrl: server.baseUrl, apiKey: "sk-chat" },
    "qwen3:8b",
    new RulesLlm(),
    log,
    timeoutMs,
  );
  return { model, logged };
}

describe("OpenAI-compatible Llm", () => {
  it("asks chat completions for JSON to the task's schema and uses the zod-checked answer", async () => {
    const { model } = llm();
    const decision = await model.decideConflict("I live in Hangzhou now", candidates);
    expect(decision).toEqual({ supersedes: [1], duplicateOf: null, reason: "llm: supersedes #1" });
    const sent = server.requests[0];
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.authorization).toBe("Bearer sk-chat");
    expect(sent.body).toMatchObject({ model: "qwen3:8b", temperature: 0, max_tokens: 512 });
    const format = sent.body.response_format as { type: string; json_schema: Record<string, unknown> };
    expect(format.type).toBe("json_schema");
    expect(format.json_schema).toMatchObject({ name: "conflict_decision", strict: true });
    expect((format.json_schema.schema as { required: string[] }).required).toEqual([
      "supersedes",
      "duplicate_of",
      "reason",
    ]);
    expect(await model.summarize("long text", 200)).toBe("Moved to Hangzhou; drinks oolong.");
    expect(await model.extractFacts(transcript)).toEqual([
      { content: "I drink oolong tea", category: "preference", memoryType: "semantic", priority: 2 },
    ]);
  });

  it.each([
    ["error", "error", '"code":"500"'],
    ["hang", "timeout", '"reason":"timeout"'],
    ["not-json", "error", '"code":"200"'],
    ["off-schema", "malformed", '"reason":"malformed"'],
  ] as const)("a server that answers %s degrades to exactly the rules' answers", async (mode, reason, logs) => {
    server.mode = mode;
    const { model, logged } = llm(150);
    const rules = new RulesLlm();
    expect(await model.decideConflict("I live in Hangzhou now", candidates)).toEqual(
      await rules.decideConflict("I live in Hangzhou now", candidates),
    );
    expect(await model.extractFacts(transcript)).toEqual(await rules.extractFacts(transcript));
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain(`"reason":"${reason}"`);
    expect(logged[0]).toContain(logs);
    expect(logged.join("\n")).not.toMatch(/Hangzhou|oolong|Shanghai/);
  });

  it("degrades when the server is unreachable", async () => {
    const log: string[] = [];
    const model = new OpenAiCompatibleLlm({ baseUrl: "http://127.0.0.1:9/v1" }, "m", new RulesLlm(), {
      warn: (m, data) => log.push(JSON.stringify({ m, ...data })),
      error: () => {},
    });
    expect(await model.summarize("short", 100)).toBe(await new RulesLlm().summarize("short", 100));
    expect(log[0]).toContain('"code":"unreachable"');
  });
});

describe("OpenAI-compatible settings", () => {
  const base = { EMBEDDING_PROVIDER: "openai-compatible", EMBEDDING_MODEL: "bge-m3", EMBEDDING_DIMENSIONS: "1024" };
  it.each([
    [{ ...base }, "EMBEDDING_BASE_URL: is required with EMBEDDING_PROVIDER=openai-compatible"],
    [{ ...base, EMBEDDING_BASE_URL: "ftp://x/v1" }, "EMBEDDING_BASE_URL: must be an http(s) URL"],
    [{ ...base, EMBEDDING_BASE_URL: "http://127.0.0.1:11434/v1", EMBEDDING_DIMENSIONS: "" }, "EMBEDDING_DIMENSIONS"],
    [{ ...base, EMBEDDING_BASE_URL: "http://h/v1", EMBEDDING_MODEL: "" }, "EMBEDDING_MODEL: must name"],
    [{ LLM_PROVIDER: "openai-compatible", LLM_MODEL: "qwen3:8b" }, "LLM_BASE_URL: is required"],
  ])("refuses an incomplete set-up at startup, naming the setting (%#)", (vars, message) => {
    expect(() => loadConfig({ ...vars })).toThrow(message);
  });

  it("accepts a complete one, keys included", () => {
    const config = loadConfig({
      ...base,
      EMBEDDING_BASE_URL: "http://127.0.0.1:11434/v1",
      EMBEDDING_API_KEY: "sk-1",
      VECTOR_INDEX: "vectorize",
      LLM_PROVIDER: "openai-compatible",
      LLM_BASE_URL: "https://gateway.ai.cloudflare.com/v1/acct/gw/openai",
      LLM_MODEL: "gpt-4o-mini",
      LLM_API_KEY: "sk-2",
    });
    expect(config).toMatchObject({ EMBEDDING_DIMENSIONS: 1024, EMBEDDING_API_KEY: "sk-1", LLM_API_KEY: "sk-2" });
  });
});

describe("the /health probe of an OpenAI-compatible embedder", () => {
  it("says unavailable when the server errs or hangs, ok when it answers, and asks at most once per period", async () => {
    server.mode = "error";
    expect(await probeEmbedder("down", embedder(), 1_000)).toBe("unavailable");
    server.mode = "hang";
    expect(await probeEmbedder("hang", embedder(undefined, 150), 1_000)).toBe("unavailable");
    server.mode = "wrong-dims";
    expect(await probeEmbedder("wrong", embedder(), 1_000)).toBe("unavailable");
    server.mode = "ok";
    server.requests.length = 0;
    // Within the period the last answer stands, and the server is not asked again.
    expect(await probeEmbedder("down", embedder(), 1_000 + PROBE_EVERY_MS - 1)).toBe("unavailable");
    expect(server.requests).toHaveLength(0);
    expect(await probeEmbedder("down", embedder(), 1_000 + PROBE_EVERY_MS)).toBe("ok");
    expect(server.requests.map((r) => r.body.input)).toEqual([["health"]]);
  });
});
