/**
 * @module memory/memory-factory
 * Builds new Memory records with every default in one place, and the hash used for exact dedupe.
 */

import { normalizeForHash } from "./text/tokenize";
import type { Memory, MemoryType, Scope } from "./types";
import { redactText } from "./write/redact-secrets";

export async function contentHash(content: string): Promise<string> {
  const bytes = new TextEncoder().encode(normalizeForHash(content));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export interface NewMemoryFields {
  content: string;
  summary?: string | null;
  category?: string;
  tags?: string[];
  priority?: number;
  confidence?: number;
  memoryType?: MemoryType;
  source?: string | null;
  externalId?: string | null;
  derivedFrom?: string[];
  eventTime?: number | null;
  expiresAt?: number | null;
  agentId: string | null;
  status?: Memory["status"];
}

/** Importance starts from priority (1 → 0.9 … 5 → 0.1) and decays if never recalled. */
export function initialImportance(priority: number): number {
  return Math.round((1.1 - priority * 0.2) * 100) / 100;
}

export function buildMemory(scope: Scope, id: string, hash: string, now: number, f: NewMemoryFields): Memory {
  const priority = f.priority ?? 3;
  return {
    id,
    accountId: scope.accountId,
    namespace: scope.namespace,
    userId: scope.userId,
    agentId: f.agentId,
    content: f.content,
    summary: f.summary ?? null,
    // Every free-text field is screened, not only content: a key pasted into a tag is still a key.
    category: f.category === undefined ? "general" : redactText(f.category),
    tags: dedupeTags((f.tags ?? []).map(redactText)),
    priority,
    confidence: f.confidence ?? 1,
    importance: initialImportance(priority),
    memoryType: f.memoryType ?? "semantic",
    source: f.source == null ? null : redactText(f.source),
    externalId: f.externalId == null ? null : redactText(f.externalId),
    derivedFrom: f.derivedFrom ?? [],
    status: f.status ?? "active",
    supersededBy: null,
    contentHash: hash,
    createdAt: now,
    updatedAt: now,
    eventTime: f.eventTime ?? null,
    expiresAt: f.expiresAt ?? null,
    deletedAt: null,
    lastAccessedAt: null,
    accessCount: 0,
    embeddingModel: null,
    indexedAt: null,
    decayedAt: null,
    consolidatedAt: null,
    entitiesAt: null,
  };
}

export function dedupeTags(tags: string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

/** Parses ISO dates from validated input; ttl_days wins over expires_at when both are given. */
export function resolveExpiry(now: number, expiresAt?: string, ttlDays?: number): number | null {
  if (ttlDays !== undefined) return now + ttlDays * 86_400_000;
  return expiresAt ? Date.parse(expiresAt) : null;
}
