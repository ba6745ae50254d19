/**
 * @module http/similarity-route
 * POST /v1/similarity — the raw cosine similarity of text pairs under the embedder this deployment
 * runs, for `npm run calibrate` (scripts/calibrate.ts), which fits the dense relevance floor and
 * the near-duplicate bar from labelled pairs. App-scoped keys only (an operator's tool); it reads
 * and writes no memory, and each call is one embedding request of at most 2 × 32 texts, as a save
 * is one. Body `{ "pairs": [{ "a": "…", "b": "…" }] }`; answer `{ provider, model, dimensions,
 * cosines }`, one cosine per pair in order. An embedder failure answers 503 provider_unavailable.
 */
import type { Context } from "hono";
import { z } from "zod";
import { invalidInput, MemoryError } from "../memory/errors";
import { LIMITS } from "../memory/limits";
import { cosine } from "../memory/vector-math";
import type { AppEnv } from "./app-env";
import { callerOf } from "./caller";

/** Pairs per call: 64 texts, one embedding request. */
export const SIMILARITY_MAX_PAIRS = 32;

const text = z.string().trim().min(1).max(LIMITS.contentMaxChars);
const similarityBody = z.object({
  pairs: z
    .array(z.object({ a: text.describe("First text"), b: text.describe("Second text") }))
    .min(1)
    .max(SIMILARITY_MAX_PAIRS)
    .describe("Text pairs whose cosine similarity to compute"),
});

async function parseBody(c: Context<AppEnv>): Promise<z.infer<typeof similarityBody>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw invalidInput("body", "must be a JSON object {pairs: [{a, b}]}");
  }
  const parsed = similarityBody.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidInput(issue.path.join(".") || "body", issue.message);
}

export async function similarityRoute(c: Context<AppEnv>): Promise<Response> {
  if (callerOf(c).principal.scope !== "app")
    throw new MemoryError(
      "forbidden",
      "POST /v1/similarity takes an app-scoped key (npm run keys -- create --app <name>)",
    );
  const { pairs } = await parseBody(c);
  const config = c.var.config;
  const embedder = c.var.services().embedder();
  let vectors: Float32Array[];
  try {
    vectors = await embedder.embed(pairs.flatMap((p) => [p.a, p.b]));
  } catch {
    throw new MemoryError("provider_unavailable", "The embedding model did not answer; try again later");
  }
  return c.json({
    provider: config.EMBEDDING_PROVIDER,
    model: embedder.model,
    dimensions: embedder.dimensions,
    cosines: pairs.map((_, i) => cosine(vectors[2 * i], vectors[2 * i + 1])),
  });
}
