/**
 * @module memory/manage/browse-memories
 * Read-side management: cursor-paginated listing, one memory's history and supersede chain,
 * per-user statistics including how far the vector index is in sync with D1, and the fixed views
 * behind resources and progressive injection (core memories, preferences). Every read applies
 * agent visibility.
 */

import type { ListInput, RecallInput, StatsInput } from "../contracts";
import { invalidInput, notFound } from "../errors";
import { isCoreMemory } from "../recall/progressive-injection";
import { passesRecallFilter, recallFilterFor } from "../recall/recall-filters";
import type { RecallHealth } from "../recall/recall-health";
import type { MemoryDeps } from "../service-deps";
import type { ListFilter, Memory, MemoryEvent, Scope, StatsSnapshot } from "../types";
import { redactEvent } from "../write/redact-event";

const DEFAULT_PAGE = 20;

export function encodeCursor(order: ListFilter["order"], m: Memory): string {
  const key = order === "priority" ? m.priority : m.createdAt;
  return btoa(JSON.stringify([order, key, m.id])).replace(/=/g, "");
}

export function decodeCursor(order: ListFilter["order"], cursor: string): { key: number; id: string } {
  try {
    const [o, key, id] = JSON.parse(atob(cursor)) as [string, number, string];
    if (o === order && typeof key === "number" && typeof id === "string") return { key, id };
  } catch {
    // fall through to the error below
  }
  throw invalidInput("cursor", "must be a next_cursor returned by the previous page with the same order");
}

export async function listMemories(
  deps: MemoryDeps,
  scope: Scope,
  input: ListInput,
): Promise<{ memories: Memory[]; nextCursor: string | null }> {
  const order = input.order ?? "newest";
  const limit = input.limit ?? DEFAULT_PAGE;
  const status = input.status ?? "active";
  const filter: ListFilter = {
    statuses: status === "all" ? "all" : [status],
    category: input.category,
    tags: input.tags,
    memoryType: input.memory_type,
    agentId: input.agent,
    visibleToAgent: scope.agentId,
    order,
    limit: limit + 1,
    cursor: input.cursor ? decodeCursor(order, input.cursor) : undefined,
  };
  const rows = await deps.repo.list(scope, filter);
  const page = rows.slice(0, limit);
  return { memories: page, nextCursor: rows.length > limit ? encodeCursor(order, page[page.length - 1]) : null };
}

/** Management view: an agent sees shared memories and its own; a call without an agent sees them all. */
export function visibleInScope(m: Memory, scope: Scope): boolean {
  return m.agentId === null || scope.agentId === undefined || m.agentId === scope.agentId;
}

/** One memory in any status, if the caller may see it; otherwise not found (never "forbidden", which would confirm it exists). */
export async function getMemory(deps: MemoryDeps, scope: Scope, id: string): Promise<Memory> {
  const memory = await deps.repo.get(scope, id);
  if (!memory || !visibleInScope(memory, scope)) throw notFound(`Memory ${id}`);
  return memory;
}

export async function memoryHistory(
  deps: MemoryDeps,
  scope: Scope,
  id: string,
): Promise<{ memory: Memory; events: MemoryEvent[]; supersedes: Memory[]; supersededBy: Memory | null }> {
  const memory = await getMemory(deps, scope, id);
  const [events, supersedes, newer] = await Promise.all([
    deps.repo.history(scope, id),
    deps.repo.list(scope, {
      statuses: "all",
      supersededBy: id,
      visibleToAgent: scope.agentId,
      order: "newest",
      limit: 50,
    }),
    memory.supersededBy ? deps.repo.get(scope, memory.supersededBy) : Promise.resolve(null),
  ]);
  // The chain may pass through another agent's private memory: that link stays hidden.
  // Redacted again on every read: an import may have stored history before it redacted all of it.
  return {
    memory,
    events: events.map(redactEvent),
    supersedes,
    supersededBy: newer && visibleInScope(newer, scope) ? newer : null,
  };
}

export interface MemoryStats extends StatsSnapshot {
  embeddingModel: string;
  vectorIndex: string;
  freshBuffered: number;
  /** Bytes the vector index holds in memory (local index), null when it lives elsewhere. */
  indexResidentBytes: number | null;
  inSync: boolean;
  /** Recalls answered from BM25 alone because the query embedding failed (memory/recall/recall-health.ts). */
  recall: RecallHealth;
}

export async function memoryStats(
  deps: MemoryDeps,
  scope: Scope,
  input: StatsInput,
  recall: RecallHealth,
): Promise<MemoryStats> {
  const snapshot = await deps.repo.stats(scope, deps.embedder.model, {
    visibleToAgent: scope.agentId,
    agentId: input.agent,
  });
  return {
    ...snapshot,
    embeddingModel: deps.embedder.model,
    vectorIndex: deps.index.kind,
    freshBuffered: deps.fresh.size,
    indexResidentBytes: deps.index.residentBytes?.() ?? null,
    inSync: snapshot.activeUnindexed === 0 && snapshot.activeOtherModel === 0,
    recall,
  };
}

/** Categories the preferences view gathers: likes and dislikes, and what the user cannot or will not do. */
export const PREFERENCE_CATEGORIES = ["preference", "preferences", "constraint"] as const;
const VIEW_CANDIDATES = 50;

/** Most important first: priority 1 before 5, then higher importance, then newer. */
function byImportance(a: Memory, b: Memory): number {
  return a.priority - b.priority || b.importance - a.importance || b.createdAt - a.createdAt;
}

function uniqueById(rows: Memory[]): Memory[] {
  return [...new Map(rows.map((m) => [m.id, m])).values()];
}

/**
 * Core memories — priority 1–2 or category personal — most important first. Injection view: the
 * agent's own plus shared memories (no agent: shared only), filtered like a recall with `input`.
 */
export async function coreMemories(
  deps: MemoryDeps,
  scope: Scope,
  limit: number,
  input: Partial<RecallInput> = {},
): Promise<Memory[]> {
  const base: ListFilter = {
    statuses: ["active"],
    visibleToAgent: scope.agentId ?? null,
    order: "priority",
    limit: VIEW_CANDIDATES,
  };
  const [important, personal] = await Promise.all([
    deps.repo.list(scope, { ...base, maxPriorityNumber: 2 }),
    deps.repo.list(scope, { ...base, category: "personal" }),
  ]);
  const filter = recallFilterFor(scope, input, deps.clock.now());
  return uniqueById([...important, ...personal])
    .filter((m) => isCoreMemory(m) && passesRecallFilter(m, filter))
    .sort(byImportance)
    .slice(0, limit);
}

/** Active, unexpired preferences and constraints, most important first (management view, like list_memories). */
export async function preferenceMemories(deps: MemoryDeps, scope: Scope, limit: number): Promise<Memory[]> {
  const now = deps.clock.now();
  const lists = await Promise.all(
    PREFERENCE_CATEGORIES.map((category) =>
      deps.repo.list(scope, {
        statuses: ["active"],
        category,
        visibleToAgent: scope.agentId,
        order: "priority",
        limit: VIEW_CANDIDATES,
      }),
    ),
  );
  return uniqueById(lists.flat())
    .filter((m) => m.expiresAt === null || m.expiresAt > now)
    .sort(byImportance)
    .slice(0, limit);
}
