/**
 * @module memory/service-deps
 * What the memory service is built from: its ports, its per-user state and its settings.
 */
import type { FreshBuffer } from "./fresh-buffer";
import type {
  Clock,
  ConversationStore,
  Embedder,
  EntityStore,
  IdempotencyStore,
  InvocationMeter,
  Llm,
  Logger,
  MemoryRepo,
  PhaseTimer,
  Reranker,
  SessionCounterStore,
  VectorIndex,
} from "./ports";

export interface ServiceSettings {
  maxResults: number;
  confidenceFloor: number;
  longContentChars: number;
  embedderKind: "local" | "workers-ai" | "openai-compatible";
  retentionDays: number;
  halfLifeDays: number;
  /** Progressive injection (recall/session-recall.ts); its default when unset. */
  progressive?: { enabled: boolean; resetMs: number; firstCallTokens: number; excerptTokens?: number };
  /** Least query coverage recall answers with (recall/abstention.ts); W.abstain's when unset. */
  abstain?: { coverage?: number; coverageCjk?: number };
  /** The entity channel of recall (recall/entity-channel.ts, RECALL_ENTITIES); off when unset. */
  entityRecall?: boolean;
  /** Relation words in a query resolved to the person they name (recall/relation-words-recall.ts, RECALL_RELATIONS); on when unset. */
  relationRecall?: boolean;
  /** The IANA zone relative dates in saved text are read in when a call gives none (TIME_ZONE); UTC when unset. */
  timeZone?: string;
  /** Rows per D1 batch of a bulk import (memory/import/import-batches.ts); its default when unset. */
  importBatchRows?: number;
  /**
   * Cosine thresholds measured for this deployment's embedder (`npm run calibrate`): the dense
   * relevance floor and the near-duplicate bar. Unset: the per-embedder defaults.
   */
  thresholds?: { denseFloor?: number; nearDuplicateCosine?: number };
}

export interface MemoryDeps {
  repo: MemoryRepo;
  /** The owner's entities and relations (memory/entities), on the same shard as `repo`. */
  entities: EntityStore;
  index: VectorIndex;
  embedder: Embedder;
  reranker: Reranker;
  llm: Llm;
  clock: Clock;
  fresh: FreshBuffer;
  idempotency: IdempotencyStore;
  sessions: SessionCounterStore;
  /** Routed conversations (memory router): injected memories and saved user messages. */
  conversations: ConversationStore;
  newId: () => string;
  log: Logger;
  timer: PhaseTimer;
  /** The current invocation's D1 allowance (PLATFORM_LIMITS); absent = unbounded. */
  invocation?: InvocationMeter;
  settings: ServiceSettings;
}
