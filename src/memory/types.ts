/**
 * @module memory/types
 * Domain types shared by the service, its pipelines and the adapters behind memory/ports.ts.
 */
import type { MEMORY_STATUSES, MEMORY_TYPES, WRITE_OUTCOMES } from "./contracts";

export type MemoryStatus = (typeof MEMORY_STATUSES)[number];
export type MemoryType = (typeof MEMORY_TYPES)[number];
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number];

/**
 * Who a call acts for: (account, namespace, user). Named everywhere through memory/owner-address.ts
 * (`ownerAddress`), never by joining the parts by hand.
 */
export interface Owner {
  accountId: string;
  /** `user` for a person's own store, `app:<name>` for an app's end users (memory/owner-address.ts). */
  namespace: string;
  userId: string;
}

/** The calling context inside one user's memory: owner plus optional agent and session. */
export interface Scope extends Owner {
  agentId?: string;
  actor: string;
  sessionKey?: string;
}

export interface Memory {
  id: string;
  accountId: string;
  namespace: string;
  userId: string;
  agentId: string | null;
  content: string;
  summary: string | null;
  category: string;
  tags: string[];
  priority: number;
  confidence: number;
  importance: number;
  memoryType: MemoryType;
  source: string | null;
  externalId: string | null;
  derivedFrom: string[];
  status: MemoryStatus;
  supersededBy: string | null;
  contentHash: string;
  createdAt: number;
  updatedAt: number;
  eventTime: number | null;
  expiresAt: number | null;
  deletedAt: number | null;
  lastAccessedAt: number | null;
  accessCount: number;
  embeddingModel: string | null;
  indexedAt: number | null;
  /** Last importance decay step (lifecycle). */
  decayedAt: number | null;
  /** When consolidation last compared this memory with its neighbours; null = due. */
  consolidatedAt: number | null;
  /** When the entities it names were extracted (memory/entities); null = due (the Cron job). */
  entitiesAt: number | null;
}

export const EVENT_OPS = [
  "create",
  "update",
  "supersede",
  "merge",
  "delete",
  "restore",
  "expire",
  "purge",
  "quarantine",
  "release",
] as const;

/** What an event records; "release" is a person letting a quarantined memory out (dashboard only). */
export type EventOp = (typeof EVENT_OPS)[number];

export interface MemoryEvent {
  memoryId: string;
  op: EventOp;
  before: Partial<Memory> | null;
  after: Partial<Memory> | null;
  actor: string;
  at: number;
}

export interface ScoredId {
  id: string;
  score: number;
}

export interface ListFilter {
  statuses: MemoryStatus[] | "all";
  category?: string;
  tags?: string[];
  memoryType?: MemoryType;
  agentId?: string;
  /** Visibility: shared memories plus this agent's private ones (null = shared only, undefined = all agents). */
  visibleToAgent?: string | null;
  createdBefore?: number;
  maxPriorityNumber?: number;
  minPriorityNumber?: number;
  source?: string;
  supersededBy?: string;
  order: "newest" | "oldest" | "priority";
  limit: number;
  cursor?: { key: number; id: string };
}

/** Which memories memory_stats counts: visible to an agent, and/or private to one agent. */
export interface StatsFilter {
  visibleToAgent?: string | null;
  agentId?: string;
}

export interface StatsSnapshot {
  total: number;
  byStatus: Record<string, number>;
  byCategory: Record<string, number>;
  byPriority: Record<string, number>;
  byType: Record<string, number>;
  oldest: number | null;
  newest: number | null;
  activeIndexed: number;
  activeUnindexed: number;
  activeOtherModel: number;
}
