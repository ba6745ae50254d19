/**
 * @module storage/memories/d1-memory-repo
 * MemoryRepo on D1 via drizzle-orm: the source of truth. The port's one class, holding the D1
 * handle and recall's BM25 state; each job lives in a module of its own: writes (one D1 batch per
 * call, d1-memory-writes.ts), purge (d1-memory-purge.ts), reads and marks by id (d1-rows-by-id.ts),
 * other reads (d1-memory-reads.ts), BM25 (d1-own-token-search.ts, d1-lexical-search.ts), history
 * (d1-memory-events.ts), stats, lifecycle pages and imported links.
 */
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import type { RetentionRule } from "../../memory/lifecycle/lifecycle-types";
import type {
  ActivePage,
  LexicalHits,
  LexicalRows,
  LexicalSearch,
  LinkRow,
  MemoryPatch,
  MemoryRepo,
  MemoryWrite,
  WeeklyCount,
} from "../../memory/ports";
import type {
  ListFilter,
  Memory,
  MemoryEvent,
  MemoryStatus,
  Owner,
  ScoredId,
  StatsFilter,
  StatsSnapshot,
} from "../../memory/types";
import { D1LexicalSearch } from "../lexical/d1-lexical-search";
import { searchOwnTokens } from "../lexical/d1-own-token-search";
import * as links from "./d1-import-links";
import * as lifecycle from "./d1-lifecycle-queries";
import { readHistory } from "./d1-memory-events";
import { purgeMemories } from "./d1-memory-purge";
import * as reads from "./d1-memory-reads";
import { writeMemories } from "./d1-memory-writes";
import { markRowsIndexed, readRowsById, touchRows } from "./d1-rows-by-id";
import { statsQueries } from "./d1-stats";

export class D1MemoryRepo implements MemoryRepo {
  private readonly db: DrizzleD1Database;

  /** Recall's BM25 (storage/d1-lexical-search.ts); keeps the corpus size between calls. */
  private readonly lexical: D1LexicalSearch;

  constructor(private readonly d1: D1Database) {
    this.db = drizzle(d1);
    this.lexical = new D1LexicalSearch(d1);
  }

  write(owner: Owner, inserts: MemoryWrite[], patches: MemoryPatch[]): Promise<void> {
    return writeMemories(this.d1, this.db, owner, inserts, patches);
  }

  async get(owner: Owner, id: string): Promise<Memory | null> {
    return (await readRowsById(this.d1, owner, [id]))[0] ?? null;
  }

  getMany(owner: Owner, ids: string[]): Promise<Memory[]> {
    return readRowsById(this.d1, owner, ids);
  }

  findByHash(owner: Owner, contentHash: string, agentId: string | null): Promise<Memory | null> {
    return reads.findByHash(this.db, owner, contentHash, agentId);
  }

  findByExternalIds(owner: Owner, externalIds: string[]): Promise<Memory[]> {
    return reads.findByExternalIds(this.db, owner, externalIds);
  }

  list(owner: Owner, filter: ListFilter): Promise<Memory[]> {
    return reads.listMemories(this.db, owner, filter);
  }

  async searchText(
    owner: Owner,
    tokens: string[],
    limit: number,
    statuses: MemoryStatus[] = ["active"],
  ): Promise<ScoredId[]> {
    return (await this.searchTextRows(owner, tokens, limit, statuses)).hits;
  }

  searchTextRows(
    owner: Owner,
    tokens: string[],
    limit: number,
    statuses: MemoryStatus[] = ["active"],
  ): Promise<LexicalRows> {
    return searchOwnTokens(this.d1, owner, tokens, limit, statuses);
  }

  searchLexical(owner: Owner, tokens: string[], o: LexicalSearch): Promise<LexicalHits> {
    return this.lexical.search(owner, tokens, o, o.rowsOf);
  }

  history(owner: Owner, id: string): Promise<MemoryEvent[]> {
    return readHistory(this.db, owner, id);
  }

  stats(owner: Owner, embeddingModel: string, filter?: StatsFilter): Promise<StatsSnapshot> {
    return statsQueries(this.db, owner, embeddingModel, filter);
  }

  weeklyCounts(owner: Owner, since: number): Promise<WeeklyCount[]> {
    return reads.weeklyCounts(this.db, owner, since);
  }

  touch(owner: Owner, ids: string[], at: number): Promise<void> {
    return touchRows(this.d1, owner, ids, at);
  }

  markIndexed(owner: Owner, ids: string[], model: string, at: number): Promise<void> {
    return markRowsIndexed(this.d1, owner, ids, model, at);
  }

  listUnindexed(owner: Owner, model: string, limit: number): Promise<Memory[]> {
    return reads.listUnindexed(this.db, owner, model, limit);
  }

  purge(owner: Owner, ids: string[], actor: string, at: number, tombstonedBefore?: number): Promise<void> {
    return purgeMemories(this.d1, this.db, owner, { ids, actor, at, tombstonedBefore });
  }

  // Lifecycle pages and updates: the queries live in d1-lifecycle-queries.ts.
  listExpiring(owner: Owner, now: number, limit: number) {
    return lifecycle.listExpiring(this.db, owner, now, limit);
  }
  listRetentionExpired(owner: Owner, rule: RetentionRule, createdBefore: number, limit: number) {
    return lifecycle.listRetentionExpired(this.db, owner, rule, createdBefore, limit);
  }
  listTombstones(owner: Owner, cutoff: number, limit: number) {
    return lifecycle.listTombstones(this.db, owner, cutoff, limit);
  }
  listActivePage(owner: Owner, page: ActivePage) {
    return lifecycle.listActivePage(this.db, owner, page);
  }
  listOtherModel(owner: Owner, model: string, limit: number) {
    return lifecycle.listOtherModel(this.db, owner, model, limit);
  }
  listDecayDue(owner: Owner, cutoff: number, limit: number) {
    return lifecycle.listDecayDue(this.db, owner, cutoff, limit);
  }
  setDecayedImportance(owner: Owner, updates: { id: string; importance: number }[], at: number) {
    return lifecycle.setDecayedImportance(this.d1, this.db, owner, updates, at);
  }
  markConsolidated(owner: Owner, ids: string[], at: number) {
    return lifecycle.markConsolidated(this.db, owner, ids, at);
  }

  pendingLinks(owner: Owner, prefix: string): Promise<LinkRow[]> {
    return links.pendingLinks(this.db, owner, prefix);
  }

  setLinks(owner: Owner, updates: LinkRow[]): Promise<void> {
    return links.setLinks(this.d1, this.db, owner, updates);
  }
}
