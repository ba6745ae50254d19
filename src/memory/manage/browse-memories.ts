/**
 * @module memory/manage/browse-memories
 * Read-side management: cursor-paginated listing, one memory's history and supersede chain, and
 * per-user statistics including how far the vector index is in sync with D1.
 */
import type { ListInput } from "../contracts";
import { invalidInput, notFound } from "../errors";
import type { MemoryDeps } from "../service-deps";
import type { ListFilter, Memory, MemoryEvent, Scope, StatsSnapshot } from "../types";

const DEFAULT_PAGE = 20;

export function encodeCursor(order: ListFilter["order"], m: Memory): string {
  const key = order === "priority" ? m.priority : m.createdAt;
  return btoa(JSON.stringify([order, key, m.id])).replace(/=+$/, "");
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

export async function listMemories(deps: MemoryDeps, scope: Scope, input: ListInput): Promise<{ memories: Memory[]; nextCursor: string | null }> {
  const order = input.order ?? "newest";
  const limit = input.limit ?? DEFAULT_PAGE;
  const status = input.status ?? "active";
  const filter: ListFilter = {
    statuses: status === "all" ? "all" : [status], category: input.category, tags: input.tags,
    memoryType: input.memory_type, agentId: input.agent, visibleToAgent: scope.agentId,
    order, limit: limit + 1, cursor: input.cursor ? decodeCursor(order, input.cursor) : undefined,
  };
  const rows = await deps.repo.list(scope, filter);
  const page = rows.slice(0, limit);
  return { memories: page, nextCursor: rows.length > limit ? encodeCursor(order, page[page.length - 1]) : null };
}

export async function memoryHistory(deps: MemoryDeps, scope: Scope, id: string): Promise<{ memory: Memory; events: MemoryEvent[]; supersedes: Memory[]; supersededBy: Memory | null }> {
  const memory = await deps.repo.get(scope, id);
  if (!memory || (memory.agentId !== null && scope.agentId !== undefined && memory.agentId !== scope.agentId)) throw notFound(`Memory ${id}`);
  const [events, supersedes, newer] = await Promise.all([
    deps.repo.history(scope, id),
    deps.repo.list(scope, { statuses: "all", supersededBy: id, order: "newest", limit: 50 }),
    memory.supersededBy ? deps.repo.get(scope, memory.supersededBy) : Promise.resolve(null),
  ]);
  return { memory, events, supersedes, supersededBy: newer };
}

export interface MemoryStats extends StatsSnapshot {
  embeddingModel: string;
  vectorIndex: string;
  freshBuffered: number;
  inSync: boolean;
}

export async function memoryStats(deps: MemoryDeps, scope: Scope): Promise<MemoryStats> {
  const snapshot = await deps.repo.stats(scope, deps.embedder.model);
  return {
    ...snapshot,
    embeddingModel: deps.embedder.model,
    vectorIndex: deps.index.kind,
    freshBuffered: deps.fresh.size,
    inSync: snapshot.activeUnindexed === 0 && snapshot.activeOtherModel === 0,
  };
}
