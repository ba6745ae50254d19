/**
 * The Llm conformance suite (test/conformance/llm-suite.ts) over the OpenAI-compatible Llm, against a
 * real HTTP server on loopback shaped by the OpenAI API.
 */
import { afterAll, beforeAll } from "vitest";
import type { Logger } from "../../src/memory/ports";
import { OpenAiCompatibleLlm } from "../../src/providers/openai-compatible/openai-compatible-llm";
import { RulesLlm } from "../../src/providers/rules-llm";
import { describeLlm } from "../conformance/llm-suite";
import { FakeOpenAiServer } from "../helpers/fake-openai-server";

const server = new FakeOpenAiServer(16);
const quiet: Logger = { warn: () => {}, error: () => {} };
beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

describeLlm(
  "OpenAiCompatibleLlm (loopback server)",
  () => new OpenAiCompatibleLlm({ baseUrl: server.baseUrl, apiKey: "sk-conformance" }, "qwen", new RulesLlm(), quiet),
);
