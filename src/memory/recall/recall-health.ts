/**
 * @module memory/recall/recall-health
 * How recall has been answering in this user's Durable Object: when the query embedding fails (the
 * embedding model errors, is rate-limited or times out), recall answers from BM25 alone — the keyword
 * fallback — and counts it here, so memory_stats can say that recent answers were keyword-only.
 */
import type { MemoryDeps } from "../service-deps";

export interface RecallHealth {
  /** Recalls answered from BM25 alone since this object started. */
  lexicalOnly: number;
  /** When the last one happened (ms), null if never. */
  lastLexicalOnlyAt: number | null;
}

/** One record per set of ports (that is, per user's Durable Object). */
const health = new WeakMap<MemoryDeps["embedder"], RecallHealth>();

export function recallHealth(deps: MemoryDeps): RecallHealth {
  return { ...(health.get(deps.embedder) ?? { lexicalOnly: 0, lastLexicalOnlyAt: null }) };
}

export function noteLexicalOnly(deps: MemoryDeps, at: number): void {
  const h = health.get(deps.embedder) ?? { lexicalOnly: 0, lastLexicalOnlyAt: null };
  health.set(deps.embedder, { lexicalOnly: h.lexicalOnly + 1, lastLexicalOnlyAt: at });
}
