/**
 * @module providers/openai-compatible/embedder-probe
 * Whether an embedder reached over HTTP answers, for GET /health: one embedding of a fixed word
 * (no memory text), its answer kept for PROBE_EVERY_MS per isolate and endpoint, so an unauthenticated
 * /health never sends the server more than one request in that time. Only the outcome is kept: "ok",
 * or "unavailable" (refused, unreachable, an error status, no answer in time, a wrong answer).
 */
import type { Embedder } from "../../memory/ports";

export const PROBE_EVERY_MS = 30_000;
const PROBE_TEXT = "health";

export type ProbeStatus = "ok" | "unavailable";

const recent = new Map<string, { at: number; status: Promise<ProbeStatus> }>();

/** The embedder's status, probed at most once per PROBE_EVERY_MS for `key` (its URL and model). */
export function probeEmbedder(key: string, embedder: Embedder, now = Date.now()): Promise<ProbeStatus> {
  const hit = recent.get(key);
  if (hit && now - hit.at < PROBE_EVERY_MS) return hit.status;
  const status = embedder.embed([PROBE_TEXT]).then(
    (vectors): ProbeStatus =>
      vectors.length === 1 && vectors[0].length === embedder.dimensions ? "ok" : "unavailable",
    (): ProbeStatus => "unavailable",
  );
  recent.set(key, { at: now, status });
  return status;
}
