/**
 * @module memory/export/export-format
 * The Hippocampus export format (docs/export-format.md), version 2: JSON Lines. Line 1 is a header
 * naming the format and version; then one line per memory with every field, its history, its links
 * (supersede, derived_from) by memory id and the entities it names and relations it states; then
 * one line per entity (kind, other names) and one per relation given on its own (no memory states
 * it); a last line counts what was written, so a reader knows the file is complete. Version 1 (no
 * entity lines or fields) still imports. Times are ISO 8601 UTC. The owner (account, user) is not repeated in
 * records (nor in history snapshots): an export is one person's memory and carries no address of
 * its store (memory/owner-address.ts). Pure.
 */
import type { Memory, MemoryEvent, MemoryStatus } from "../types";

export const EXPORT_FORMAT = "hippocampus-export";
export const EXPORT_VERSION = 2;
/** Versions this server imports. */
export const IMPORTED_VERSIONS: readonly number[] = [1, 2];

export interface ExportFilter {
  /** One status, or every status. */
  status: MemoryStatus | "all";
  category?: string;
  /** Memories created at or after this time (epoch ms). */
  since?: number;
  /** Only memories private to this agent. */
  agentId?: string;
}

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exported_at: string;
  filters: { status: string; category: string | null; since: string | null; agent_id: string | null };
}

export interface ExportEvent {
  op: MemoryEvent["op"];
  at: string;
  actor: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface ExportRecord {
  type: "memory";
  id: string;
  agent_id: string | null;
  content: string;
  summary: string | null;
  category: string;
  tags: string[];
  priority: number;
  confidence: number;
  importance: number;
  memory_type: Memory["memoryType"];
  status: MemoryStatus;
  superseded_by: string | null;
  derived_from: string[];
  source: string | null;
  external_id: string | null;
  created_at: string;
  updated_at: string;
  event_time: string | null;
  expires_at: string | null;
  deleted_at: string | null;
  last_accessed_at: string | null;
  access_count: number;
  embedding_model: string | null;
  history: ExportEvent[];
  /** Names of the entities it names; null while its entities have not been extracted yet. */
  entities: string[] | null;
  /** Relations it states, by names ("user": the person). */
  relations: ExportedRelation[];
}

/** A relation by names: each end an entity's name, or "user" for the person themself. */
export interface ExportedRelation {
  subject: string;
  predicate: string;
  object: string;
}

/** What one memory names and states (export lines' `entities` and `relations`). */
export interface StatedEntities {
  entities: string[];
  relations: ExportedRelation[];
}

export interface ExportedEntity {
  id: string;
  name: string;
  kind: string;
  aliases: string[];
}

export type ExportEntityLine = { type: "entity" } & ExportedEntity;
export type ExportRelationLine = { type: "relation" } & ExportedRelation;

export interface ExportTrailer {
  type: "end";
  memories: number;
  events: number;
  entities: number;
  relations: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** Owner columns never leave the store: a history snapshot loses them too. */
function snapshot(value: Partial<Memory> | null): Record<string, unknown> | null {
  if (!value) return null;
  const { accountId: _a, namespace: _n, userId: _u, ...rest } = value;
  return rest;
}

export function exportHeader(filter: ExportFilter, now: number): ExportHeader {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: iso(now),
    filters: {
      status: filter.status,
      category: filter.category ?? null,
      since: filter.since === undefined ? null : iso(filter.since),
      agent_id: filter.agentId ?? null,
    },
  };
}

export function exportEvent(e: MemoryEvent): ExportEvent {
  return { op: e.op, at: iso(e.at), actor: e.actor, before: snapshot(e.before), after: snapshot(e.after) };
}

export function exportRecord(m: Memory, history: MemoryEvent[], stated?: StatedEntities): ExportRecord {
  return {
    type: "memory",
    id: m.id,
    agent_id: m.agentId,
    content: m.content,
    summary: m.summary,
    category: m.category,
    tags: m.tags,
    priority: m.priority,
    confidence: m.confidence,
    importance: m.importance,
    memory_type: m.memoryType,
    status: m.status,
    superseded_by: m.supersededBy,
    derived_from: m.derivedFrom,
    source: m.source,
    external_id: m.externalId,
    created_at: iso(m.createdAt),
    updated_at: iso(m.updatedAt),
    event_time: isoOrNull(m.eventTime),
    expires_at: isoOrNull(m.expiresAt),
    deleted_at: isoOrNull(m.deletedAt),
    last_accessed_at: isoOrNull(m.lastAccessedAt),
    access_count: m.accessCount,
    embedding_model: m.embeddingModel,
    history: history.map(exportEvent),
    // Imported or extracted mentions count even before the extraction job visited it.
    entities: stated ? stated.entities : m.entitiesAt === null ? null : [],
    relations: stated?.relations ?? [],
  };
}

export function exportEntity(e: ExportedEntity): ExportEntityLine {
  return { type: "entity", ...e };
}

export function exportRelation(r: ExportedRelation): ExportRelationLine {
  return { type: "relation", ...r };
}
