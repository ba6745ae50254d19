/**
 * @module memory/write/save-memory
 * The write pipeline for one memory: screen → exact dedupe → summarise long text → embed →
 * near-duplicate and contradiction check → one D1 batch → vector index. Runs inside the user's
 * Durable Object, so checks and writes for one user never race.
 */
import type { MemoryPatch } from "../ports";
import type { MemoryDeps } from "../service-deps";
import type { Memory, Scope } from "../types";
import type { SaveInput } from "../contracts";
import { buildMemory, contentHash, dedupeTags, resolveExpiry } from "../memory-factory";
import { indexVectors } from "../indexing";
import { lexicalOverlap, indexTokens } from "../text/tokenize";
import { findSimilar, type SimilarMemory } from "./similar-memories";
import { mergePatch, supersedePatch } from "./merge";
import { screenContent } from "./screen-content";

export interface SaveResult {
  status: "created" | "merged" | "superseded" | "quarantined" | "rejected";
  id: string | null;
  memory: Memory | null;
  supersededIds: string[];
  redactions: { kind: string; count: number }[];
  reason: string | null;
}

export interface SaveOptions {
  derivedFrom?: string[];
}

/** Near-duplicate = both signals high: dense similarity and lexical overlap. */
const NEAR_DUP_COSINE = 0.9;
const NEAR_DUP_OVERLAP = 0.6;
const SUMMARY_CHARS = 300;

export async function saveMemory(deps: MemoryDeps, scope: Scope, input: SaveInput, options: SaveOptions = {}): Promise<SaveResult> {
  const now = deps.clock.now();
  const screened = screenContent(input.content, input.confidence ?? 1, deps.settings.confidenceFloor);
  if (screened.verdict === "rejected") {
    return { status: "rejected", id: null, memory: null, supersededIds: [], redactions: screened.redactions, reason: screened.reason };
  }
  const agentId = input.shared ? null : scope.agentId ?? null;
  const hash = await contentHash(screened.text);
  const memory = buildMemory(scope, deps.newId(), hash, now, {
    content: screened.text, category: input.category, tags: input.tags, priority: input.priority,
    confidence: input.confidence, memoryType: input.memory_type, source: input.source ?? null,
    eventTime: input.event_time ? Date.parse(input.event_time) : null,
    expiresAt: resolveExpiry(now, input.expires_at, input.ttl_days), agentId,
    derivedFrom: options.derivedFrom, status: screened.verdict === "quarantine" ? "quarantined" : "active",
  });
  const base = { supersededIds: [] as string[], redactions: screened.redactions };
  if (screened.verdict === "quarantine") {
    await deps.repo.write(scope, [{ memory, ftsTokens: "", event: { memoryId: memory.id, op: "quarantine", before: null, after: memory, actor: scope.actor, at: now } }], []);
    return { ...base, status: "quarantined", id: memory.id, memory, reason: screened.reason ?? "possible prompt injection" };
  }
  const exact = await deps.repo.findByHash(scope, hash, agentId);
  if (exact) return merge(deps, scope, exact, memory, base.redactions, "exact duplicate");
  if (screened.text.length > deps.settings.longContentChars) memory.summary = await deps.llm.summarize(screened.text, SUMMARY_CHARS);
  const [vector] = await deps.embedder.embed([memory.summary ?? memory.content]);
  const similar = await findSimilar(deps, scope, memory.content, vector);
  const near = similar.find((s) => s.memory.agentId === agentId && s.cosine >= NEAR_DUP_COSINE && lexicalOverlap(s.memory.content, memory.content) >= NEAR_DUP_OVERLAP);
  if (near) return merge(deps, scope, near.memory, memory, base.redactions, "near duplicate");
  return insertWithConflicts(deps, scope, memory, vector, similar, base.redactions);
}

async function insertWithConflicts(
  deps: MemoryDeps, scope: Scope, memory: Memory, vector: Float32Array, similar: SimilarMemory[], redactions: SaveResult["redactions"],
): Promise<SaveResult> {
  const now = memory.createdAt;
  const decision = await deps.llm.decideConflict(memory.content, similar.map((s, i) => ({ handle: i + 1, content: s.memory.content, category: s.memory.category })));
  const dup = decision.duplicateOf !== null ? similar[decision.duplicateOf - 1] : undefined;
  if (dup && dup.memory.agentId === memory.agentId) return merge(deps, scope, dup.memory, memory, redactions, decision.reason);
  const older = decision.supersedes.map((h) => similar[h - 1]?.memory).filter((m): m is Memory => m !== undefined);
  const patches: MemoryPatch[] = older.map((m) => supersedePatch(m, memory.id, decision.reason, scope.actor, now));
  await deps.repo.write(scope, [{ memory, ftsTokens: indexTokens(memory.content).join(" "), event: { memoryId: memory.id, op: "create", before: null, after: memory, actor: scope.actor, at: now } }], patches);
  if (older.length > 0) {
    deps.fresh.remove(older.map((m) => m.id));
    await deps.index.remove(scope, older.map((m) => m.id)).catch((err) => deps.log.warn("vector removal failed", { error: String(err) }));
  }
  const indexed = await indexVectors(deps, scope, [{ id: memory.id, vector }]);
  if (indexed.indexed) Object.assign(memory, { embeddingModel: deps.embedder.model, indexedAt: deps.clock.now() });
  return {
    status: older.length > 0 ? "superseded" : "created", id: memory.id, memory,
    supersededIds: older.map((m) => m.id), redactions, reason: older.length > 0 ? decision.reason : null,
  };
}

async function merge(deps: MemoryDeps, scope: Scope, existing: Memory, incoming: Memory, redactions: SaveResult["redactions"], reason: string): Promise<SaveResult> {
  const patch = mergePatch(existing, { ...incoming, derivedFrom: incoming.derivedFrom }, scope.actor, incoming.createdAt);
  await deps.repo.write(scope, [], [patch]);
  const merged = { ...existing, ...patch.changes, tags: dedupeTags([...existing.tags, ...incoming.tags]) };
  return { status: "merged", id: existing.id, memory: merged, supersededIds: [], redactions, reason };
}
