/**
 * @module memory/memory-service
 * The domain façade one user's Durable Object calls: every memory operation, each delegating to
 * its pipeline module. Holds no transport concerns; inputs are already validated by the zod
 * contracts in memory/contracts.ts.
 */
import type { DeleteInput, ForgetInput, ListInput, RecallInput, SaveInput, UpdateInput } from "./contracts";
import { invalidInput } from "./errors";
import type { MemoryDeps } from "./service-deps";
import type { Scope } from "./types";
import { saveMemory, type SaveOptions, type SaveResult } from "./write/save-memory";
import { recallMemories, type RecallOutcome } from "./recall/recall-memories";
import { deleteMemories, restoreMemory, updateMemory } from "./manage/edit-memories";
import { listMemories, memoryHistory, memoryStats } from "./manage/browse-memories";
import { forgetMemories } from "./manage/forget-memories";

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

export class MemoryService {
  constructor(readonly deps: MemoryDeps) {}

  async save(scope: Scope, input: SaveInput, options?: SaveOptions): Promise<SaveResult & { replayed: boolean }> {
    const key = input.idempotency_key ? `${scope.accountId}:${scope.userId}:${scope.agentId ?? ""}:${input.idempotency_key}` : null;
    const now = this.deps.clock.now();
    if (key) {
      const previous = await this.deps.idempotency.get(key, now - IDEMPOTENCY_WINDOW_MS);
      if (previous) return { ...(previous as SaveResult), replayed: true };
    }
    const result = await saveMemory(this.deps, scope, input, options);
    if (key) await this.deps.idempotency.put(key, result, now);
    return { ...result, replayed: false };
  }

  recall(scope: Scope, input: RecallInput, limit: number): Promise<RecallOutcome> {
    return recallMemories(this.deps, scope, input, limit);
  }

  update(scope: Scope, input: UpdateInput) {
    return updateMemory(this.deps, scope, input);
  }

  delete(scope: Scope, input: DeleteInput) {
    const ids = [...(input.id ? [input.id] : []), ...(input.ids ?? [])];
    if (ids.length === 0) throw invalidInput("id", "give id or ids");
    return deleteMemories(this.deps, scope, ids);
  }

  restore(scope: Scope, id: string) {
    return restoreMemory(this.deps, scope, id);
  }

  list(scope: Scope, input: ListInput) {
    return listMemories(this.deps, scope, input);
  }

  forget(scope: Scope, input: ForgetInput) {
    return forgetMemories(this.deps, scope, input);
  }

  history(scope: Scope, id: string) {
    return memoryHistory(this.deps, scope, id);
  }

  stats(scope: Scope) {
    return memoryStats(this.deps, scope);
  }
}
