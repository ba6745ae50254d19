/**
 * An embedding outage for tests: the Workers AI embedder over a fake AI binding (typed by the
 * installed workers-types) failing the ways the service fails — it throws (capacity), refuses (429,
 * daily allocation spent), never answers (the adapter's timeout), or answers with the wrong output
 * (too few vectors, or vectors of the wrong size) — switched on and off around the embedder the
 * user's Durable Object already runs, so after the outage the same model indexes what was written.
 */
import type { Embedder } from "../../src/memory/ports";
import { WorkersAiEmbedder } from "../../src/providers/workers-ai-embedder";
import type { EmbeddingModel } from "../../src/providers/workers-ai-models";
import { FakeEmbeddingAi } from "./fake-ai";

const MODEL: EmbeddingModel = "@cf/baai/bge-m3";

export const OUTAGE_KINDS = ["throws", "429", "timeout", "too few vectors", "wrong size"] as const;
export type OutageKind = (typeof OUTAGE_KINDS)[number];

function failingAi(kind: OutageKind, dims: number): FakeEmbeddingAi {
  return new FakeEmbeddingAi((texts) => {
    switch (kind) {
      case "throws":
        throw new Error("3040: Capacity temporarily exceeded, please try again.");
      case "429":
        throw new Error("4006: you have used up your daily free allocation of 10,000 neurons (429)");
      case "timeout":
        return new Promise<never>(() => {});
      case "too few vectors":
        return { shape: [0, dims], data: texts.slice(1).map(() => new Array(dims).fill(0.1)) };
      case "wrong size":
        return { shape: [texts.length, dims * 2], data: texts.map(() => new Array(dims * 2).fill(0.1)) };
    }
  });
}

export interface Outage {
  down: boolean;
  /** Texts the embedder was asked for while down (what the failing model saw). */
  failedCalls: number;
}

/** `like` while `outage.down` is false; the failing Workers AI embedder (50 ms timeout) while it is true. */
export function outageEmbedder(like: Embedder, kind: OutageKind, outage: Outage): Embedder {
  const failing = new WorkersAiEmbedder(failingAi(kind, like.dimensions), MODEL, like.dimensions, 50);
  return {
    model: like.model,
    dimensions: like.dimensions,
    embed: (texts) => {
      if (!outage.down) return like.embed(texts);
      outage.failedCalls++;
      return failing.embed(texts);
    },
  };
}
