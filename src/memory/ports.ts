/**
 * @module memory/ports
 * The interfaces the domain needs from the outside world. Adapters in storage/ and providers/
 * implement them; the composition root (src/composition.ts) picks one per port from config.
 * Nothing in memory/ imports an adapter.
 */
import type { EventOp, ListFilter, Memory, MemoryEvent, MemoryStatus, Owner, ScoredId, StatsSnapshot } from "./types";

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
}

export interface Reranker {
  readonly kind: "workers-ai" | "none";
  /** Relevance per document, same order; higher is better. */
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
}

export interface ExtractedFact {
  content: string;
  category: string;
  memoryType: "semantic" | "episodic";
  priority: number;
}

export interface Llm {
  readonly kind: "workers-ai" | "rules";
  decideConflict(newContent: string, candidates: ConflictCandidate[]): Promise<ConflictDecision>;
  summarize(content: string, maxChars: number): Promise<string>;
  extractFacts(messages: { role: string; content: string }[]): Promise<ExtractedFact[]>;
}

/** A memory row plus its pre-tokenized FTS text and the event that created or changed it. */
export interface MemoryWrite {
  memory: Memory;
  ftsTokens: string;
  event: MemoryEvent;
}

export interface MemoryPatch {
  id: string;
  changes: Partial<Memory>;
  /** New FTS tokens when the searchable text changed. */
  ftsTokens?: string;
  event: { op: EventOp; before: Partial<Memory> | null; after: Partial<Memory> | null; actor: string; at: number };
}

export interface MemoryRepo {
  /** Inserts rows and applies patches in one D1 batch (all or nothing). */
  write(owner: Owner, inserts: MemoryWrite[], patches: MemoryPatch[]): Promise<void>;
  get(owner: Owner, id: string): Promise<Memory | null>;
  getMany(owner: Owner, ids: string[]): Promise<Memory[]>;
  findByHash(owner: Owner, contentHash: string, agentId: string | null): Promise<Memory | null>;
  findByExternalIds(owner: Owner, externalIds: string[]): Promise<Memory[]>;
  list(owner: Owner, filter: ListFilter): Promise<Memory[]>;
  /** BM25 over the pre-tokenized column; scores are positive, higher is better. */
  searchText(owner: Owner, tokens: string[], limit: number, statuses?: MemoryStatus[]): Promise<ScoredId[]>;
  history(owner: Owner, id: string): Promise<MemoryEvent[]>;
  stats(owner: Owner, embeddingModel: string): Promise<StatsSnapshot>;
  touch(owner: Owner, ids: string[], at: number): Promise<void>;
  markIndexed(owner: Owner, ids: string[], model: string, at: number): Promise<void>;
  /** Active rows not indexed with `model`, oldest first (repair and migration). */
  listUnindexed(owner: Owner, model: string, limit: number): Promise<Memory[]>;
  /** Removes rows for good (purge), keeping a content-free purge event. */
  purge(owner: Owner, ids: string[], actor: string, at: number): Promise<void>;
}

export interface Clock {
  now(): number;
}

/** Answers remembered per idempotency key (24 h) so a retried save writes nothing. */
export interface IdempotencyStore {
  get(key: string, now: number): Promise<unknown | null>;
  put(key: string, value: unknown, now: number): Promise<void>;
}

export interface Logger {
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}
