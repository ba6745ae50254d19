/**
 * @module memory/write/save-memory
 * The write pipeline for one memory: screen (confidence, secrets, value, injection) → exact dedupe
 * → summarise long text → embed → near-duplicate and contradiction check → one D1 batch → vector
 * index. Runs inside the user's Durable Object, whose MemoryService admits one write at a time,
 * so the checks and the write for one user never interleave with another write.
 * When the embedder fails the save still lands: the checks run on BM25 candidates, the row and its
 * FTS row are written with indexed_at null, and the answer's memory says so (indexing.ts awaitsIndex).
 */

import type { SaveInput } from "../contracts";
import { syncEntities } from "../entities/sync-entities";
import { embedOrNull, upsertVectors } from "../indexing";
import { buildMemory, contentHash, resolveExpiry } from "../memory-factory";
import { gateConflictReason, screenModelText } from "../model-gate";
import type { MemoryPatch } from "../ports";
import type { MemoryDeps } from "../service-deps";
import { indexTokens } from "../text/tokenize";
import type { Memory, Scope, WriteOutcome } from "../types";
import { eventTimeOf, zoneFor } from "./event-date";
import { mergePatch, supersedePatch } from "./merge";
import { isNearDuplicate } from "./near-duplicate";
import { remaindersOf, remainderWrites } from "./remainder";
import { screenContent } from "./screen-content";
import { findSimilar, type SimilarMemory, visibleTo } from "./similar-memories";

export interface SaveResult {
  status: WriteOutcome;
  id: string | null;
  memory: Memory | null;
  supersededIds: string[];
  redactions: { kind: string; count: number }[];
  reason: string | null;
  /** Memories kept from what a supersede replaced: the facts the new memory does not contradict (remainder.ts). */
  remainderIds?: string[];
}

export interface SaveOptions {
  /** Provenance of a derived memory (ids, or `source:<ref>` for a transcript it was extracted from). */
  derivedFrom?: string[];
  /** Pre-tokenized words around it (the conversation a fact came from), indexed as low-weight search context. */
  contextTokens?: string;
  /**
   * Memories the conflict check must see whatever the similarity search finds: the facts saved
   * earlier from the same conversation, which a later turn may correct (summarize-conversation.ts).
   */
  compareWith?: Memory[];
}

/**
 * A model's summary of long content as it may be stored and shown (it becomes the search/fetch
 * title): secrets redacted; null when it addresses a model (the memory is then shown and embedded by
 * its own words, which were screened on the way in). The drop is logged by its reason only.
 */
export async function screenedSummary(deps: MemoryDeps, content: string): Promise<string | null> {
  const summary = await deps.llm.summarize(content, summaryLimit(deps.settings.longContentChars));
  const screened = screenModelText(summary);
  if (screened.keep) return screened.text;
  deps.log.warn("model summary dropped: it addresses a model", { reason: screened.reason });
  return null;
}

/** Longest summary embedded in place of long content (characters). */
export const SUMMARY_CHARS = 300;

/** A summary never exceeds the length that triggers one, so a low LONG_CONTENT_CHARS still shortens. */
export function summaryLimit(longContentChars: number): number {
  return Math.min(SUMMARY_CHARS, longContentChars);
}

type Redactions = SaveResult["redactions"];

export async function saveMemory(
  deps: MemoryDeps,
  scope: Scope,
  input: SaveInput,
  options: SaveOptions = {},
): Promise<SaveResult> {
  const labels = [input.category, ...(input.tags ?? []), input.source];
  const screened = screenContent(input.content, input.confidence ?? 1, deps.settings.confidenceFloor, labels);
  if (screened.verdict === "rejected") {
    return {
      status: "rejected",
      id: null,
      memory: null,
      supersededIds: [],
      redactions: screened.redactions,
      reason: screened.reason,
    };
  }
  const memory = await newMemory(deps, scope, input, screened.text, options);
  const redactions = screened.redactions;
  if (screened.verdict === "quarantine")
    return quarantine(deps, scope, memory, redactions, screened.reason ?? "possible prompt injection");
  const long = memory.content.length > deps.settings.longContentChars;
  const exactCheck = deps.repo.findByHash(scope, memory.contentHash, memory.agentId);
  // Short content: the duplicate check and the similarity search reach D1 together (one round
  // trip). Long content waits for the check, so an exact duplicate never costs a summary.
  if (long) {
    const exact = await exactCheck;
    if (exact) return merge(deps, scope, exact, memory, redactions, "exact duplicate");
  }
  const search = similarTo(deps, scope, memory, long);
  // Handled at once: if it fails while the exact check is awaited, that is no unhandled rejection.
  search.catch(() => undefined);
  const exact = await exactCheck;
  if (exact) {
    return merge(deps, scope, exact, memory, redactions, "exact duplicate");
  }
  const { vector, similar: found } = await search;
  const similar = withEarlier(found, options.compareWith ?? [], scope);
  const near = similar.find(
    (s) =>
      s.memory.agentId === memory.agentId &&
      isNearDuplicate(
        memory.content,
        s.memory.content,
        s.cosine,
        deps.settings.embedderKind,
        deps.settings.thresholds?.nearDuplicateCosine,
      ),
  );
  if (near) return merge(deps, scope, near.memory, memory, redactions, nearReason(near.cosine));
  return insertWithConflicts(deps, scope, memory, vector, similar, redactions, options.contextTokens);
}

/** The similar memories, then the earlier ones not among them that are still active and visible. */
function withEarlier(similar: SimilarMemory[], earlier: Memory[], scope: Scope): SimilarMemory[] {
  const seen = new Set(similar.map((s) => s.memory.id));
  const more = earlier.filter((m) => !seen.has(m.id) && m.status === "active" && visibleTo(m, scope.agentId ?? null));
  return [...similar, ...more.map((memory) => ({ memory, cosine: 0 }))];
}

function nearReason(cosine: number | null): string {
  return cosine === null ? "near duplicate (same words; no vector)" : `near duplicate (cosine ${cosine.toFixed(2)})`;
}

/** Summary (long content), embedding (null when the embedder fails), and the most similar memories. */
async function similarTo(
  deps: MemoryDeps,
  scope: Scope,
  memory: Memory,
  long: boolean,
): Promise<{ vector: Float32Array | null; similar: SimilarMemory[] }> {
  if (long) memory.summary = await screenedSummary(deps, memory.content);
  // Long content is embedded by its summary: one focused vector instead of a diluted one.
  const vectors = await embedOrNull(deps, [memory.summary ?? memory.content], "the memory is stored, indexed later");
  const vector = vectors?.[0] ?? null;
  return { vector, similar: await findSimilar(deps, scope, memory.content, vector) };
}

async function newMemory(
  deps: MemoryDeps,
  scope: Scope,
  input: SaveInput,
  text: string,
  options: SaveOptions,
): Promise<Memory> {
  const now = deps.clock.now();
  return buildMemory(scope, deps.newId(), await contentHash(text), now, {
    content: text,
    category: input.category,
    tags: input.tags,
    priority: input.priority,
    confidence: input.confidence,
    memoryType: input.memory_type,
    source: input.source ?? null,
    // The day relative words name ("tomorrow", 「下周五」), read from now in the person's zone (event-date.ts).
    eventTime: eventTimeOf(text, input.event_time, {
      at: now,
      timeZone: zoneFor(undefined, deps.settings.timeZone),
    }),
    expiresAt: resolveExpiry(now, input.expires_at, input.ttl_days),
    agentId: input.shared ? null : (scope.agentId ?? null),
    derivedFrom: options.derivedFrom,
  });
}

/** Stored for a person to review, but never searchable: no FTS row, no vector. */
async function quarantine(
  deps: MemoryDeps,
  scope: Scope,
  memory: Memory,
  redactions: Redactions,
  reason: string,
): Promise<SaveResult> {
  memory.status = "quarantined";
  const after = { ...memory, reason } as Partial<Memory>;
  await deps.repo.write(
    scope,
    [
      {
        memory,
        ftsTokens: "",
        event: { memoryId: memory.id, op: "quarantine", before: null, after, actor: scope.actor, at: memory.createdAt },
      },
    ],
    [],
  );
  return { status: "quarantined", id: memory.id, memory, supersededIds: [], redactions, reason };
}

async function insertWithConflicts(
  deps: MemoryDeps,
  scope: Scope,
  memory: Memory,
  vector: Float32Array | null,
  similar: SimilarMemory[],
  redactions: Redactions,
  contextTokens?: string,
): Promise<SaveResult> {
  const now = memory.createdAt;
  // Small integer handles, never raw ids: a model cannot invent or leak an id it never saw.
  const decided = await deps.llm.decideConflict(
    memory.content,
    similar.map((s, i) => ({ handle: i + 1, content: s.memory.content, category: s.memory.category })),
  );
  // The reason reaches the client and the history: the rules' own words or a code, never a model's text.
  const decision = { ...decided, reason: gateConflictReason(decided) };
  const dup = decision.duplicateOf !== null ? similar[decision.duplicateOf - 1] : undefined;
  if (dup && dup.memory.agentId === memory.agentId)
    return merge(deps, scope, dup.memory, memory, redactions, decision.reason);
  const older = [...new Set(decision.supersedes)]
    .map((h) => similar[h - 1]?.memory)
    .filter((m): m is Memory => m !== undefined && mayReplace(memory, m));
  const rest = await remaindersOf(
    deps,
    scope,
    memory,
    older,
    similar.map((s) => s.memory),
    decision,
  );
  const keptAs = (m: Memory) => rest.find((r) => r.fromId === m.id)?.memory.id;
  const why = (m: Memory) =>
    keptReason(
      decision.reason,
      rest.filter((r) => r.memory.id === keptAs(m)),
    );
  const patches: MemoryPatch[] = older.map((m) => supersedePatch(m, memory.id, why(m), scope.actor, now));
  const created = {
    ...memory,
    ...(older.length > 0 ? { supersedes: older.map((m) => m.id), reason: decision.reason } : {}),
  } as Partial<Memory>;
  // Index first, so the row is written once with its indexed_at (D1 stays the truth: recall
  // validates every vector hit, and repair removes a vector whose row never landed). No vector:
  // the row lands with indexed_at null and the repair job embeds it later.
  const withVectors = [{ memory, vector }, ...rest.map((r) => ({ memory: r.memory, vector: r.vector }))].filter(
    (v): v is { memory: Memory; vector: Float32Array } => v.vector !== null,
  );
  const vectors = withVectors.map((v) => ({ id: v.memory.id, vector: v.vector }));
  const indexed = vectors.length > 0 && (await upsertVectors(deps, scope, vectors, deps.clock.now()));
  if (indexed)
    for (const { memory: m } of withVectors)
      Object.assign(m, { embeddingModel: deps.embedder.model, indexedAt: deps.clock.now() });
  await deps.repo.write(
    scope,
    [
      {
        memory,
        ftsTokens: indexTokens(memory.content).join(" "),
        contextTokens,
        event: { memoryId: memory.id, op: "create", before: null, after: created, actor: scope.actor, at: now },
      },
      ...remainderWrites(rest, memory.id, scope.actor),
    ],
    patches,
  );
  // The superseded memories' mentions stay with them (reads count active memories only).
  await syncEntities(deps, scope, [memory, ...rest.map((r) => r.memory)]);
  if (older.length > 0) {
    deps.fresh.remove(older.map((m) => m.id));
    await deps.index
      .remove(
        scope,
        older.map((m) => m.id),
      )
      .catch((err) => deps.log.warn("vector removal failed", { error: String(err) }));
  }
  return {
    status: older.length > 0 ? "superseded" : "created",
    id: memory.id,
    memory,
    supersededIds: older.map((m) => m.id),
    redactions,
    reason: older.length > 0 ? keptReason(decision.reason, rest) : null,
    ...(rest.length > 0 ? { remainderIds: rest.map((r) => r.memory.id) } : {}),
  };
}

/** The decision's reason, and the memories kept from what it superseded. */
function keptReason(reason: string, rest: { memory: Memory }[]): string {
  return rest.length > 0 ? `${reason}; the rest kept as ${rest.map((r) => r.memory.id).join(", ")}` : reason;
}

/**
 * An agent's private memory never replaces a shared one (every other agent would lose the fact and
 * could not see its replacement); a shared memory may replace shared and private ones.
 */
function mayReplace(newer: Memory, older: Memory): boolean {
  return newer.agentId === null || older.agentId === newer.agentId;
}

async function merge(
  deps: MemoryDeps,
  scope: Scope,
  existing: Memory,
  incoming: Memory,
  redactions: Redactions,
  reason: string,
): Promise<SaveResult> {
  const patch = mergePatch(existing, incoming, scope.actor, incoming.createdAt, reason);
  await deps.repo.write(scope, [], [patch]);
  return {
    status: "merged",
    id: existing.id,
    memory: { ...existing, ...patch.changes },
    supersededIds: [],
    redactions,
    reason,
  };
}
