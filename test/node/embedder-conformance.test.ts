/**
 * The Embedder conformance suite (test/conformance/embedder-suite.ts) over the OpenAI-compatible
 * embedder, against a real HTTP server on loopback shaped by the OpenAI API.
 */
import { afterAll, beforeAll } from "vitest";
import { OpenAiCompatibleEmbedder } from "../../src/providers/openai-compatible/openai-compatible-embedder";
import { describeEmbedder } from "../conformance/embedder-suite";
import { FakeOpenAiServer } from "../helpers/fake-openai-server";

const server = new FakeOpenAiServer(16);
beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});

describeEmbedder(
  "OpenAiCompatibleEmbedder (loopback server)",
  () => new OpenAiCompatibleEmbedder({ baseUrl: server.baseUrl, apiKey: "sk-conformance" }, "bge-m3", 16),
);
