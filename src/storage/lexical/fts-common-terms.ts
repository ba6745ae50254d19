/**
 * @module storage/lexical/fts-common-terms
 * Query terms found in half of the full-text rows or more, remembered for a while. bm25() gives
 * such a term an idf of 1e-6 — it changes no score — yet FTS5 still visits every row it matches, so
 * on large tables recall leaves it out of the match. A term is checked by its bm25() on one row
 * that holds it (FTS5 counts the term's rows itself, so D1 reads one row, where counting them in
 * SQL read up to half the table), in the same D1 batch as the search that first meets it (no extra
 * round trip), and checked again after `ttlMs`.
 */

export class CommonTerms {
  /** term → when it was last checked; insertion order doubles as LRU order for the size cap. */
  private readonly checked = new Map<string, { at: number; common: boolean }>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxTerms = 20_000,
  ) {}

  isCommon(term: string, now: number): boolean {
    const c = this.checked.get(term);
    return c !== undefined && c.common && now - c.at < this.ttlMs;
  }

  needsCount(term: string, now: number): boolean {
    const c = this.checked.get(term);
    return c === undefined || now - c.at >= this.ttlMs;
  }

  record(term: string, common: boolean, now: number): void {
    this.checked.delete(term);
    this.checked.set(term, { at: now, common });
    if (this.checked.size > this.maxTerms) this.checked.delete(this.checked.keys().next().value as string);
  }
}
