/**
 * @module memory/recall/recall-health
 * How recall has been answering for this user: when the query embedding fails (the embedding model
 * errors, is rate-limited or times out), recall answers from BM25 alone — the keyword fallback — and
 * the service counts it here, so memory_stats can say that recent answers were keyword-only. One
 * record per MemoryService (that is, per user's Durable Object); no module state.
 */

export interface RecallHealth {
  /** Recalls answered from BM25 alone since this object started. */
  lexicalOnly: number;
  /** When the last one happened (ms), null if never. */
  lastLexicalOnlyAt: number | null;
}

export class RecallHealthRecord {
  private lexicalOnly = 0;
  private lastLexicalOnlyAt: number | null = null;

  noteLexicalOnly(at: number): void {
    this.lexicalOnly += 1;
    this.lastLexicalOnlyAt = at;
  }

  snapshot(): RecallHealth {
    return { lexicalOnly: this.lexicalOnly, lastLexicalOnlyAt: this.lastLexicalOnlyAt };
  }
}
