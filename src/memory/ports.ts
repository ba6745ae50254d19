/**
 * @module memory/ports
 * The interfaces the domain needs from the outside world. Adapters in storage/ and providers/
 * implement them; the composition root (src/composition.ts) picks one per port from config.
 * Nothing in memory/ imports an adapter.
 */

import type {
  EntityDetail,
  EntityGraph,
  EntityListOptions,
  EntityPage,
  EntityRelationView,
  MemoryEntities,
} from "./entities/entity-types";
import type { ExportedEntity, ExportedRelation, ExportFilter, StatedEntities } from "./export/export-format";
import type { LifecycleJobName, RetentionRule } from "./lifecycle/lifecycle-types";
import type {
  EventOp,
  ListFilter,
  Memory,
  MemoryEvent,
  MemoryStatus,
  Owner,
  ScoredId,
  StatsFilter,
  StatsSnapshot,
} from "./types";

export interface Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** L2-normalised vectors, one per text, same order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export interface VectorItem {
  id: string;
  vector: Float32Array;
}

export interface VectorIndex {
  readonly kind: "vectorize" | "local";
  /** True when upserts become queryable only later (Vectorize): the service then keeps a fresh buffer. */
  readonly eventual: boolean;
  upsert(owner: Owner, items: VectorItem[]): Promise<void>;
  query(owner: Owner, vector: Float32Array, topK: number): Promise<ScoredId[]>;
  remove(owner: Owner, ids: string[]): Promise<void>;
  /** Ids the index holds for this owner (repair); undefined when the backend cannot enumerate. */
  listIds?(owner: Owner): Promise<string[] | undefined>;
  /** Bytes the index holds in this isolate's memory (local index: matrix + ids); undefined when remote. */
  residentBytes?(): number;
}

export interface Reranker {
  readonly kind: "workers-ai" | "none";
  /** Relevance per document in [0, 1], same order; higher is better (the adapter owns the score mapping). */
  rerank(query: string, documents: string[]): Promise<number[]>;
}

export interface ConflictCandidate {
  handle: number;
  content: string;
  category: string;
}

export interface ConflictDecision {
  /** Handles of candidates the new memory contradicts and therefore supersedes. */
  supersedes: number[];
  /** Handle of a candidate that says the same thing (merge instead of insert), if any. */
  duplicateOf: number | null;
  reason: string;
  /**
   * For a superseded candidate that also states facts the new memory does not contradict: those
   * facts, in the candidate's own words ("I teach yoga on weekends" from "I live in Lisbon and teach
   * yoga on weekends" superseded by "I moved to Porto"). Kept as a new memory derived from it
   * (memory/write/remainder.ts checks each one first).
   */
  remainders?: { handle: number; content: string }[];
}

export interface ExtractedFact {
  content: string;
  category: string;
  memoryType: "semantic" | "episodic";
  priority: number;
  /** Index of the message it came from in the messages given to extractFacts, when the extractor knows it. */
  turn?: number;
  /** YYYY-MM-DD the fact's relative date resolves to, when a model resolved it against `ExtractionContext.date`. */
  eventTime?: string;
}

/** What an extractor may know of the conversation besides its messages. */
export interface ExtractionContext {
  /** When the conversation took place (ISO 8601), to resolve "next month" / 「上周三」 against. */
  date?: string;
}

export interface Llm {
  readonly kind: "workers-ai" | "openai-compatible" | "rules";
  decideConflict(newContent: string, candidates: ConflictCandidate[]): Promise<ConflictDecision>;
  summarize(content: string, maxChars: number): Promise<string>;
  extractFacts(messages: { role: string; content: string }[], context?: ExtractionContext): Promise<ExtractedFact[]>;
}

export interface LexicalSearch {
  limit: number;
  statuses: MemoryStatus[];
  /** bm25() column weight of the context column (own tokens weigh 1). */
  contextWeight: number;
  /**
   * Ids whose rows (the owner's, any status, as getMany reads them) come back in `rows` too, read
   * in the same round trip as the search: candidates another retriever found before it started.
   */
  rowsOf?: string[];
}

/** Lexical hits with their rows, read in the same query (owner and status checked). */
export interface LexicalRows {
  hits: ScoredId[];
  rows: Memory[];
}

export interface LexicalHits {
  /** BM25 scores, positive, higher is better. */
  hits: ScoredId[];
  /**
   * The hits' rows, read in the same query (owner and status checked): recall need not fetch them
   * again; then the rows of `rowsOf` that exist (owner checked).
   */
  rows: Memory[];
  /** Rows in the full-text index: the N of BM25's idf. */
  corpusSize: number;
}

/** A memory row plus its pre-tokenized FTS text and the event that created or changed it. */
export interface MemoryWrite {
  memory: Memory;
  ftsTokens: string;
  /** Pre-tokenized text of neighbouring turns (bulk import), indexed in the FTS context column. */
  contextTokens?: string;
  event: MemoryEvent;
  /** Imported history (a Hippocampus export): written instead of `event`. */
  history?: MemoryEvent[];
}

export interface MemoryPatch {
  id: string;
  changes: Partial<Memory>;
  /** New FTS tokens when the searchable text changed. */
  ftsTokens?: string;
  /**
   * The row's state the patch was computed from (lifecycle jobs): applied only if status and
   * updated_at are still these, so a row changed since it was selected is left alone (no event either).
   */
  when?: { status: MemoryStatus; updatedAt: number };
  event: { op: EventOp; before: Partial<Memory> | null; after: Partial<Memory> | null; actor: string; at: number };
}

/** The owner's rows by id and by filter, their history and counts: what the tools read. */
export interface MemoryReads {
  get(owner: Owner, id: string): Promise<Memory | null>;
  getMany(owner: Owner, ids: string[]): Promise<Memory[]>;
  findByHash(owner: Owner, contentHash: string, agentId: string | null): Promise<Memory | null>;
  findByExternalIds(owner: Owner, externalIds: string[]): Promise<Memory[]>;
  list(owner: Owner, filter: ListFilter): Promise<Memory[]>;
  history(owner: Owner, id: string): Promise<MemoryEvent[]>;
  stats(owner: Owner, embeddingModel: string, filter?: StatsFilter): Promise<StatsSnapshot>;
  /** Memories created per week (weeks since the epoch, Thursday-based) and category, since `since`. */
  weeklyCounts(owner: Owner, since: number): Promise<WeeklyCount[]>;
}

/** Full-text search over the owner's rows (FTS5 BM25): recall's lexical channel and the write path's candidates. */
export interface MemoryTextSearch {
  /** BM25 over the pre-tokenized column; scores are positive, higher is better. */
  searchText(owner: Owner, tokens: string[], limit: number, statuses?: MemoryStatus[]): Promise<ScoredId[]>;
  /** searchText with the hits' rows from the same query: the write path needs no second read. */
  searchTextRows(owner: Owner, tokens: string[], limit: number, statuses?: MemoryStatus[]): Promise<LexicalRows>;
  /** Recall's BM25: own tokens plus neighbour context at `contextWeight`, and the corpus size for idf scaling. */
  searchLexical(owner: Owner, tokens: string[], options: LexicalSearch): Promise<LexicalHits>;
}

/** Every change of the owner's rows. Only the owner's Durable Object (the single writer) calls these. */
export interface MemoryWrites {
  /** Inserts rows and applies patches in one D1 batch (all or nothing). */
  write(owner: Owner, inserts: MemoryWrite[], patches: MemoryPatch[]): Promise<void>;
  /** Records a recall's access (last_accessed_at, access_count); no event. */
  touch(owner: Owner, ids: string[], at: number): Promise<void>;
  markIndexed(owner: Owner, ids: string[], model: string, at: number): Promise<void>;
  /**
   * Removes rows for good (purge), keeping a content-free purge event. With `tombstonedBefore`, only
   * rows that are still tombstones (deleted, expired, superseded) from before that time go: a row
   * restored or edited since it was selected is left alone, with its events.
   */
  purge(owner: Owner, ids: string[], actor: string, at: number, tombstonedBefore?: number): Promise<void>;
}

/** The lifecycle jobs (memory/lifecycle): bounded pages of the rows each job still has to visit, and its writes. */
export interface LifecycleRows {
  /** Active rows not indexed with `model`, oldest first (repair and migration). */
  listUnindexed(owner: Owner, model: string, limit: number): Promise<Memory[]>;
  /** Active rows whose expires_at is at or before `now`. */
  listExpiring(owner: Owner, now: number, limit: number): Promise<Memory[]>;
  /** Active rows a retention rule expires: matching selector, saved before `createdBefore`, not pinned. */
  listRetentionExpired(owner: Owner, rule: RetentionRule, createdBefore: number, limit: number): Promise<Memory[]>;
  /** Deleted, expired and superseded rows whose tombstone time (deleted_at, else updated_at) is at or before `cutoff`. */
  listTombstones(owner: Owner, cutoff: number, limit: number): Promise<Memory[]>;
  /** Active rows in (created_at, id) order after `page.after`; `pending` narrows to rows a job has not handled. */
  listActivePage(owner: Owner, page: ActivePage): Promise<Memory[]>;
  /** Active, indexed rows whose embedding model is not `model` (migration). */
  listOtherModel(owner: Owner, model: string, limit: number): Promise<Memory[]>;
  /** Never-recalled active rows above the decay floor, last decayed (or created) at or before `cutoff`. */
  listDecayDue(owner: Owner, cutoff: number, limit: number): Promise<DecayCandidate[]>;
  /** Sets importance and decayed_at; no event (decay is a ranking signal, not a change of content). */
  setDecayedImportance(owner: Owner, updates: { id: string; importance: number }[], at: number): Promise<void>;
  markConsolidated(owner: Owner, ids: string[], at: number): Promise<void>;
}

/** Import of an export (memory/import/import-links): links that name a row by its exported id. */
export interface ImportLinkRows {
  /** Rows whose superseded_by or derived_from still holds a `prefix`ed (unresolved) link. */
  pendingLinks(owner: Owner, prefix: string): Promise<LinkRow[]>;
  /** Sets links without an event: resolving an imported link is not a change of the memory. */
  setLinks(owner: Owner, updates: LinkRow[]): Promise<void>;
}

/**
 * The owner's memories on D1, the source of truth: every port above, implemented by one adapter
 * (storage/memories/d1-memory-repo.ts). Callers that need only part of it take that part.
 */
export interface MemoryRepo extends MemoryReads, MemoryTextSearch, MemoryWrites, LifecycleRows, ImportLinkRows {}

/** A memory an entity lookup found, and through which entity. */
export interface EntityHit {
  memoryId: string;
  entityId: string;
}

/** The person (or pet, place…) an alias key names: "best friend" → Sarah. */
export interface AliasName {
  key: string;
  name: string;
}

/**
 * An owner's entities, their names and aliases, the memories that name them and the relations those
 * state (memory/entities). Every read counts and returns active memories only, so a superseded,
 * deleted or expired memory's mentions leave recall and the counts with it, and come back on restore.
 */
export interface EntityStore {
  /**
   * What these memories name, replacing what they named before (an edit re-extracts), and marks each
   * memory extracted (its entities_at): one D1 batch. A memory not the owner's is left alone.
   */
  replaceMentions(owner: Owner, items: MemoryEntities[], at: number): Promise<void>;
  /** Another system's graph as given (an import); mentions only of the owner's existing memories. */
  storeGraph(owner: Owner, graph: EntityGraph, at: number): Promise<void>;
  /** Drops the mentions and relations these memories stated (a purge); entities no memory names go too. */
  forgetMemories(owner: Owner, memoryIds: string[]): Promise<void>;
  /**
   * Entities named by at least one active memory the agent `options.visibleToAgent` may read (every
   * agent's when undefined), or with a relation imported as given, most mentioned first.
   */
  list(owner: Owner, options: EntityListOptions): Promise<EntityPage>;
  /**
   * The entity whose name or an alias has this lookup key (entity-keys.ts entityKey), with its
   * relations and memories as that agent may read them; null when none, or when `list` would not show it.
   */
  describe(owner: Owner, key: string, visibleToAgent?: string): Promise<EntityDetail | null>;
  /** Active memories naming an entity with one of these lookup keys, at most `limit`. */
  memoriesNaming(owner: Owner, keys: string[], limit: number): Promise<EntityHit[]>;
  /** Active memories other than `memoryIds` that name an entity one of them names (recall's second hop). */
  sharedEntityMemories(owner: Owner, memoryIds: string[], limit: number): Promise<EntityHit[]>;
  /**
   * The names of the entities these alias keys name ("best friend" → "Sarah"), those some active
   * memory names, the most recently updated first, at most `limit`: one statement.
   */
  aliasNames(owner: Owner, keys: string[], limit: number): Promise<AliasName[]>;
  /** Relations with one of these entities on either side (as in `describe`: stated by an active memory the agent may read, or imported), at most `limit`. */
  relationsOf(owner: Owner, entityIds: string[], limit: number, visibleToAgent?: string): Promise<EntityRelationView[]>;
}

export interface WeeklyCount {
  /** floor(created_at / one week): week 0 starts 1970-01-01. */
  week: number;
  category: string;
  count: number;
}

export interface LinkRow {
  id: string;
  supersededBy: string | null;
  derivedFrom: string[];
}

/** Reads for an export (memory/export): every status, keyset pages, the history of a page's rows. */
export interface ExportReader {
  /** Rows matching the filter in (created_at, id) order after `after`. */
  exportPage(owner: Owner, filter: ExportFilter, after: Keyset | null, limit: number): Promise<Memory[]>;
  /** How many rows match the filter (for a progress bar; the export's last line has the real count). */
  count(owner: Owner, filter: ExportFilter): Promise<number>;
  /** Events of these memories, each list in the order they happened. */
  eventsOf(owner: Owner, ids: string[]): Promise<Map<string, MemoryEvent[]>>;
  /** What these memories name and state (entity names, relations by names); a memory naming nothing has no entry. */
  statedOf(owner: Owner, ids: string[]): Promise<Map<string, StatedEntities>>;
  /** The owner's entities in id order after `after` ("" from the first), with their other names. */
  entityPage(owner: Owner, after: string, limit: number): Promise<ExportedEntity[]>;
  /** Relations no memory states (imported as given), in row order after `after` (0 from the first). */
  givenRelationPage(
    owner: Owner,
    after: number,
    limit: number,
  ): Promise<{ position: number; relation: ExportedRelation }[]>;
}

/** A (created_at, id) position in the active rows, for resumable passes. */
export interface Keyset {
  createdAt: number;
  id: string;
}

export interface ActivePage {
  after: Keyset | null;
  limit: number;
  pending?: "index" | "consolidation" | "entities";
}

export interface DecayCandidate {
  id: string;
  importance: number;
  createdAt: number;
  decayedAt: number | null;
}

/** An owner with lifecycle work due, and which jobs it needs. */
export interface DueOwner extends Owner {
  jobs: LifecycleJobName[];
}

/** What the cron asks D1 about every user at once: cheap indexed queries, each bounded. */
export interface DueQuery {
  now: number;
  /** Tombstones at or before this are purged. */
  purgeCutoff: number;
  /** Never-recalled rows last decayed at or before this are due. */
  decayCutoff: number;
  /** The current embedding model key: indexed rows with another one need migration. */
  model: string;
  retention: { rule: RetentionRule; createdBefore: number }[];
}

export interface LifecycleScan {
  /** Up to `limit` owners with work due, each with the jobs it needs. */
  ownersDue(query: DueQuery, limit: number): Promise<DueOwner[]>;
  /** Active rows across all users not indexed / indexed with another model, counted up to `cap`. */
  indexSync(model: string, cap: number): Promise<{ unindexed: number; otherModel: number; capped: boolean }>;
}

/** Resumable positions of lifecycle jobs, kept per user (Durable Object storage). */
export interface CursorStore {
  get(key: string): Promise<string | null>;
  put(key: string, cursor: string | null): Promise<void>;
}

export interface Clock {
  now(): number;
}

/** How many recall calls one session has made, and when the last one was. */
export interface SessionCounter {
  calls: number;
  lastAt: number;
}

/**
 * Per-session recall counters of progressive injection, kept beside the user's other per-user state
 * (the Durable Object's SQLite). Synchronous on purpose: read, count and write happen in one step,
 * so two concurrent calls of a session can never read the same count.
 */
export interface SessionCounterStore {
  /** Replaces `key`'s counter by `next(previous)` and forgets every other session last seen at or before `idleSince`. */
  advance(
    key: string,
    next: (previous: SessionCounter | undefined) => SessionCounter,
    idleSince: number,
  ): SessionCounter;
}

/**
 * What the memory router (src/router/) remembers of one routed conversation: how many turns it
 * recalled for, which memories it has injected (never twice), and a digest of every user message
 * already saved (a history sent again is never saved twice).
 */
export interface ConversationState {
  turns: number;
  injected: string[];
  saved: string[];
  lastAt: number;
}

/**
 * Routed conversations' state, in the user's Durable Object SQLite beside the session counters.
 * Synchronous like SessionCounterStore: read and write happen in one step of the object.
 */
export interface ConversationStore {
  get(key: string): ConversationState | undefined;
  /** Replaces `key`'s state and forgets every other conversation last seen at or before `idleSince`. */
  put(key: string, state: ConversationState, idleSince: number): void;
}

/** Answers remembered per idempotency key (24 h) so a retried save writes nothing. */
export interface IdempotencyStore {
  get(key: string, now: number): Promise<unknown | null>;
  put(key: string, value: unknown, now: number): Promise<void>;
}

/**
 * Times a phase of the current request for the Server-Timing header (timing/request-timing.ts).
 * `index`: the vector index query; `rank`: fusion, boosts and rerank.
 */
export interface PhaseTimer {
  time<T>(phase: "index" | "rank", work: () => Promise<T> | T): Promise<T>;
}

export interface Logger {
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/**
 * What the current invocation may still ask of D1 (the platform's per-invocation limits): work that
 * can outgrow one invocation (lifecycle batches, an import's batches) stops or refuses before it
 * would be cut off. Absent: unbounded (tests of pure domain code).
 */
export interface InvocationMeter {
  /** D1 calls (statements, each also a subrequest) this invocation may still make. */
  callsLeft(): number;
}
