/**
 * The hostile-upstream suite over a real socket: the OpenAI-compatible embedder and Llm against the
 * fake server on loopback (test/helpers/fake-openai-server.ts) in its hostile modes. A 400 MB answer
 * is refused after the byte cap with the stream cancelled (the bytes the server got to write are
 * counted, and the test process's heap growth is printed); a body or headers that never finish end
 * at the call's deadline (+2 s at most); a 307 to another origin is refused and nothing reaches that
 * origin; non-finite and huge vectors are provider_unavailable; and every model text of the
 * injection mode is caught by the gate before it could be stored or shown. The same modes run
 * inside workerd against the real Durable Object in test/integration/hostile-upstream.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MemoryError } from "../../src/memory/errors";
import { gateConflictReason, screenModelText } from "../../src/memory/model-gate";
import type { Logger } from "../../src/memory/ports";
import { screenContent } from "../../src/memory/write/screen-content";
import { withCallDeadline } from "../../src/providers/gate/call-deadline";
import {
  embeddingsAnswerBytes,
  OpenAiCompatibleEmbedder,
} from "../../src/providers/openai-compatible/openai-compatible-embedder";
import { OpenAiCompatibleLlm } from "../../src/providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "../../src/providers/rules-llm";
import { FakeOpenAiServer } from "../helpers/fake-openai-server";
import { AWS_KEY, HUGE_BODY_BYTES, newRecord, UNSCREENED } from "../helpers/hostile-upstream";

const DIMS = 16;
const server = new FakeOpenAiServer(DIMS);
const elsewhere = new FakeOpenAiServer(DIMS);
const MB = 1024 * 1024;
/** What loopback socket buffers can hold beyond what the client read (the server writes with backpressure). */
const SOCKET_SLACK = 16 * MB;

beforeAll(async () => {
  await server.start();
  await elsewhere.start();
  server.redirectTo = elsewhere.baseUrl;
});
afterAll(async () => {
  await server.stop();
  await elsewhere.stop();
});
beforeEach(() => {
  server.mode = "ok";
  server.requests.length = 0;
  elsewhere.requests.length = 0;
  Object.assign(server.record, newRecord());
});

const quiet: Logger = { warn: () => {}, error: () => {} };
const embedder = () => new OpenAiCompatibleEmbedder({ baseUrl: server.baseUrl }, "bge-m3", DIMS);
const llm = () => new OpenAiCompatibleLlm({ baseUrl: server.baseUrl }, "qwen3:8b", new RulesLlm(), quiet);

async function unavailable(work: Promise<unknown>): Promise<string> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MemoryError);
  expect((err as MemoryError).code).toBe("provider_unavailable");
  return (err as MemoryError).message;
}

describe("bodies: bounded in bytes and in time", () => {
  it("a 400 MB answer is refused after the cap, its stream cancelled, the heap barely grows", async () => {
    server.mode = "huge-body";
    const before = process.memoryUsage();
    expect(await unavailable(embedder().embed(["a long answer"]))).toMatch(/larger than \d+ bytes/);
    const after = process.memoryUsage();
    // Give the server's close handler a moment to see the cancelled socket.
    await new Promise((r) => setTimeout(r, 200));
    const pulled = server.record.maxBodyPulled;
    // One text of 16 dimensions: the cap is what such an answer can honestly take (64.5 KiB).
    const cap = embeddingsAnswerBytes(1, DIMS);
    const heapGrowthMb = (after.heapUsed - before.heapUsed) / MB;
    console.log(
      `hostile upstream, 400 MB answer: ${(pulled / MB).toFixed(1)} MB written by the server of ${HUGE_BODY_BYTES / MB} MB, cap ${(cap / 1024).toFixed(1)} KiB, Node heap +${heapGrowthMb.toFixed(1)} MB, rss +${((after.rss - before.rss) / MB).toFixed(1)} MB`,
    );
    expect(pulled).toBeLessThan(cap + SOCKET_SLACK);
    expect(server.record.cancelled).toBeGreaterThan(0);
    expect(heapGrowthMb).toBeLessThan(64);
  });

  it.each(["slow-body", "slow-headers"] as const)(
    "%s: the embedder and the Llm give up at the call's deadline (+2 s), the Llm answering as the rules do",
    async (mode) => {
      server.mode = mode;
      const deadline = 1_000;
      let started = Date.now();
      // The production timeouts (10 s, 20 s) are cut to what is left of the deadline.
      const message = await withCallDeadline(deadline, () => unavailable(embedder().embed(["x"])));
      expect(Date.now() - started).toBeLessThan(deadline + 2_000);
      expect(message).toMatch(/no answer within|no time left/);
      started = Date.now();
      const transcript = [{ role: "user", content: "I drink oolong tea every morning" }];
      const facts = await withCallDeadline(deadline, () => llm().extractFacts(transcript));
      expect(Date.now() - started).toBeLessThan(deadline + 2_000);
      expect(facts).toEqual(await new RulesLlm().extractFacts(transcript));
    },
  );
});

describe("redirects: never followed to another origin", () => {
  it("a 307 elsewhere is refused; the memory text and the key never reach that origin", async () => {
    server.mode = "redirect";
    const keyed = new OpenAiCompatibleEmbedder({ baseUrl: server.baseUrl, apiKey: "sk-secret" }, "bge-m3", DIMS);
    expect(await unavailable(keyed.embed(["my bank PIN hint is the dog's name"]))).toMatch(
      /redirect refused \(HTTP 307\): to another origin/,
    );
    const summary = await llm().summarize("my bank PIN hint is the dog's name and more", 100);
    expect(summary).toBe(await new RulesLlm().summarize("my bank PIN hint is the dog's name and more", 100));
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe("vectors: finite and of the configured size", () => {
  it.each([
    ["non-finite", /not a finite float32/],
    ["huge-vector", new RegExp(`returns ${DIMS * 64}-dimension vectors but EMBEDDING_DIMENSIONS is ${DIMS}`)],
    ["wrong-dims", new RegExp(`returns ${DIMS / 2}-dimension vectors`)],
  ] as const)("%s: provider_unavailable, naming what was wrong", async (mode, message) => {
    server.mode = mode;
    expect(await unavailable(embedder().embed(["one", "two"]))).toMatch(message);
  });
});

describe("model text: every answer of the injection mode is caught by the gate", () => {
  it("summary, conflict reason and extracted facts: none reaches a store or a client unscreened", async () => {
    server.mode = "injection";
    const model = llm();
    const summary = await model.summarize("A long note about my garden and my bees.", 300);
    const gated = screenModelText(summary);
    expect(gated.keep).toBe(false);
    const decision = await model.decideConflict("I live in Porto", [
      { handle: 1, content: "I live in Lisbon", category: "personal" },
    ]);
    for (const marker of UNSCREENED) expect(gateConflictReason(decision)).not.toMatch(marker);
    expect(decision.reason).toBe("llm: supersedes #1");
    const facts = await model.extractFacts([{ role: "user", content: "I keep bees on my roof" }]);
    expect(facts.length).toBeGreaterThan(0);
    for (const fact of facts) {
      // Each fact is saved through the write pipeline's screen, as user text is.
      const screened = screenContent(fact.content, 1, 0.6);
      if (screened.verdict === "rejected") continue;
      expect(screened.text).not.toContain(AWS_KEY);
      expect(screened.text).not.toMatch(/hunter2/);
      if (UNSCREENED[0].test(screened.text)) expect(screened.verdict).toBe("quarantine");
    }
  });
});
