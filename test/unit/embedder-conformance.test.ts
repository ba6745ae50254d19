/**
 * The Embedder conformance suite (test/conformance/embedder-suite.ts) over the offline hash embedder
 * and the Workers AI embedder over a fake binding shaped by workers-types (bge-m3's answer shape).
 */
import { LocalHashEmbedder } from "../../src/providers/local-hash-embedder";
import { WorkersAiEmbedder } from "../../src/providers/workers-ai-embedder";
import { describeEmbedder } from "../conformance/embedder-suite";
import { FakeEmbeddingAi } from "../helpers/fake-ai";

const DIMS = 16;

/** A deterministic answer per text, as a real model gives: its char codes spread over DIMS. */
function modelVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0.01);
  for (let i = 0; i < text.length; i++) v[(i * 7 + text.charCodeAt(i)) % DIMS] += 1;
  return v;
}

describeEmbedder("LocalHashEmbedder", () => new LocalHashEmbedder());
describeEmbedder("LocalHashEmbedder (EMBEDDING_DIMENSIONS=64)", () => new LocalHashEmbedder({ dimensions: 64 }));
describeEmbedder(
  "WorkersAiEmbedder (fake binding)",
  () =>
    new WorkersAiEmbedder(
      new FakeEmbeddingAi((texts) => ({ data: texts.map(modelVector), shape: [texts.length, DIMS] })),
      "@cf/baai/bge-m3",
      DIMS,
    ),
);
