/**
 * @module memory/memory-service
 * The domain façade one user's Durable Object calls: every memory operation, each delegating to
 * its pipeline module. Holds no transport concerns; inputs are already validated by the zod
 * contracts in memory/contracts.ts.
 */
import type {
  DeleteInput,
  EditInput,
  ForgetInput,
  ListInput,
  RecallInput,
  SaveInput,
  StatsInput,
  SummarizeInput,
} from "./contracts";
import type { EntityGraphInput, ListEntitiesInput } from "./entities/entity-contracts";
import { entityWithMemories } from "./entities/entity-memories";
import { describeEntity, listEntities, readableRelations, storeEntities } from "./entities/entity-reads";
import { ENTITY_LIMITS } from "./entities/entity-types";
import { invalidInput, MemoryError } from "./errors";
import { importEntities } from "./import/import-entities";
import type { ImportGraph } from "./import/import-graph";
import type { NumberedLine } from "./import/import-line";
import { type ImportResult, importMemories } from "./import/import-memories";
import type { MaintenanceReport, MaintenanceRequest } from "./lifecycle/lifecycle-types";
import { runMaintenance } from "./lifecycle/run-maintenance";
import {
  coreMemories,
  getMemory,
  listMemories,
  memoryHistory,
  memoryStats,
  preferenceMemories,
} from "./manage/browse-memories";
import { deleteMemories, releaseMemory, restoreMemory, updateMemory } from "./manage/edit-memories";
import { forgetMemories } from "./manage/forget-memories";
import { ownedKey } from "./owner-address";
import type { CursorStore } from "./ports";
import { AccessRecorder } from "./recall/access-recorder";
import { fetchListed } from "./recall/fetch-listed";
import type { FusedCandidate } from "./recall/fuse-scores";
import { RecallHealthRecord } from "./recall/recall-health";
import { type RecallOutcome, recallMemories } from "./recall/recall-memories";
import { requestHash } from "./request-hash";
import { SerialQueue } from "./serial-queue";
import type { MemoryDeps } from "./service-deps";
import type { Memory, Scope } from "./types";
import { type SaveOptions, type SaveResult, saveMemory } from "./write/save-memory";
import { summarizeConversation } from "./write/summarize-conversation";

const IDEMPOTENCY_WINDOW_MS = 24 * 3600_000;

/** What an idempotency key remembers: the hash of the request it was first used for, and its answer. */
interface IdempotentAnswer {
  request: string;
  result: SaveResult;
}

export interface RecallOptions {
  /** False when the caller shows only part of the results and counts access itself (progressive injection). */
  touch?: boolean;
}

export class MemoryService {
  /**
   * `queue`: one per user for every mutation, writes and lifecycle jobs alike. `access`: counts of
   * what this service showed, written in bursts off the hot path (memory/recall/access-recorder.ts);
   * owned by the service (one per user's Durable Object) and flushed through flushAccess(), not kept
   * in module state. `recallHealth`: how many recalls fell back to BM25 alone, for memory_stats.
   */
  constructor(
    readonly deps: MemoryDeps,
    readonly queue: SerialQueue = new SerialQueue(),
    private readonly access: AccessRecorder = new AccessRecorder(deps.repo, deps.log),
    private readonly recallHealth: RecallHealthRecord = new RecallHealthRecord(),
  ) {}

  /**
   * The same service over other ports (tests swap a failing index in): one write queue still, and the
   * counts not yet written stay pending while the repository is the same one.
   */
  withDeps(deps: MemoryDeps): MemoryService {
    return new MemoryService(
      deps,
      this.queue,
      deps.repo === this.deps.repo ? this.access : undefined,
      this.recallHealth,
    );
  }

  /**
   * Admits one write at a time for this user. A Durable Object only holds other requests back while
   * it awaits its own storage; during a D1 or AI call a second request runs, and two saves of one
   * sentence would both miss the duplicate (measured: two rows without this queue).
   */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    return this.queue.run(op);
  }

  save(scope: Scope, input: SaveInput, options?: SaveOptions): Promise<SaveResult & { replayed: boolean }> {
    return this.serial(() => this.saveOnce(scope, input, options));
  }

  private async saveOnce(
    scope: Scope,
    input: SaveInput,
    options?: SaveOptions,
  ): Promise<SaveResult & { replayed: boolean }> {
    const key = input.idempotency_key ? ownedKey(scope, scope.agentId ?? "", input.idempotency_key) : null;
    const now = this.deps.clock.now();
    const request = key ? await requestHash(input) : "";
    if (key) {
      const previous = (await this.deps.idempotency.get(key, now - IDEMPOTENCY_WINDOW_MS)) as IdempotentAnswer | null;
      if (previous && previous.request !== request)
        throw new MemoryError(
          "idempotency_mismatch",
          "idempotency_key: already used for a different request in the last 24 hours",
          "idempotency_key",
        );
      if (previous) return { ...previous.result, replayed: true };
    }
    const result = await saveMemory(this.deps, scope, input, options);
    if (key) await this.deps.idempotency.put(key, { request, result } satisfies IdempotentAnswer, now);
    return { ...result, replayed: false };
  }

  /**
   * Lifecycle jobs for this user (cron and on-demand tools) on the same queue as every write, so a
   * purge can never interleave with a restore nor expiry with an update. Access counts of recent
   * recalls are written first (memory/recall/access-recorder.ts): decay must see them.
   */
  maintain(scope: Scope, request: MaintenanceRequest, cursors: CursorStore): Promise<MaintenanceReport> {
    return this.serial(async () => {
      await this.flushAccess();
      return runMaintenance(this.deps, scope, scope.actor, request, cursors);
    });
  }

  /**
   * Runs `op` while no write of this user is in flight and none can start (a shard move,
   * durable/shard-relocation.ts): it waits its turn on the write queue like a write.
   */
  exclusive<T>(op: () => Promise<T>): Promise<T> {
    return this.serial(async () => {
      await this.flushAccess();
      return op();
    });
  }

  /** Transcript → extracted facts, each saved through the write pipeline with its own outcome. */
  summarize(scope: Scope, input: SummarizeInput) {
    return this.serial(() => summarizeConversation(this.deps, scope, input));
  }

  /** Bulk import: lines stored exactly as given (see memory/import/import-memories.ts), one write at a time like saves. */
  /** Validated lines, and the entity graph that came with them (stored once the memories are). */
  import(scope: Scope, lines: NumberedLine[], graph?: ImportGraph): Promise<ImportResult> {
    return this.serial(async () => {
      const result = await importMemories(this.deps, scope, lines);
      if (graph === undefined) return result;
      return { ...result, entities: await importEntities(this.deps, scope, graph, result.items) };
    });
  }

  /** The recall pipeline; what it returns counts as accessed unless the caller counts access itself. */
  async recall(scope: Scope, input: RecallInput, limit: number, options?: RecallOptions): Promise<RecallOutcome> {
    const outcome = await recallMemories(this.deps, scope, input, limit);
    if (outcome.lexicalOnly) this.recallHealth.noteLexicalOnly(this.deps.clock.now());
    if (options?.touch !== false)
      this.touch(
        scope,
        outcome.results.map((r) => r.memory.id),
      );
    return outcome;
  }

  /** Counts an access for memories shown to an agent (off the hot path). */
  touch(scope: Scope, ids: string[]): void {
    this.access.record(scope, ids, this.deps.clock.now());
  }

  /** Writes the access counts gathered so far now (before jobs that read them, such as decay). */
  flushAccess(): Promise<void> {
    return this.access.flush();
  }

  update(scope: Scope, input: EditInput) {
    return this.serial(() => updateMemory(this.deps, scope, input));
  }

  delete(scope: Scope, input: DeleteInput) {
    const ids = [...(input.id ? [input.id] : []), ...(input.ids ?? [])];
    if (ids.length === 0) throw invalidInput("id", "give id or ids");
    return this.serial(() => deleteMemories(this.deps, scope, ids));
  }

  restore(scope: Scope, id: string) {
    return this.serial(() => restoreMemory(this.deps, scope, id));
  }

  /** Quarantine release: a person's decision, reachable from the dashboard only. */
  release(scope: Scope, id: string) {
    return this.serial(() => releaseMemory(this.deps, scope, id));
  }

  /** Memories saved per week and category since `since` (dashboard overview). */
  activity(scope: Scope, since: number) {
    return this.deps.repo.weeklyCounts(scope, since);
  }

  list(scope: Scope, input: ListInput) {
    return listMemories(this.deps, scope, input);
  }

  forget(scope: Scope, input: ForgetInput) {
    return this.serial(() => forgetMemories(this.deps, scope, input));
  }

  history(scope: Scope, id: string) {
    return memoryHistory(this.deps, scope, id);
  }

  stats(scope: Scope, input?: StatsInput) {
    return memoryStats(this.deps, scope, input ?? {}, this.recallHealth.snapshot());
  }

  get(scope: Scope, id: string) {
    return getMemory(this.deps, scope, id);
  }

  /** One memory as a search result's reader may see it: what recall could list (memory/recall/fetch-listed.ts). */
  fetchListed(scope: Scope, id: string, includeSuperseded: boolean) {
    return fetchListed(this.deps, scope, id, includeSuperseded);
  }

  /** The owner's entities, most mentioned first (memory/entities/entity-reads.ts). */
  listEntities(scope: Scope, input: ListEntitiesInput) {
    return listEntities(this.deps, scope, input);
  }

  /** One entity by name or alias, with its relations and the memories that name it; null when none. */
  describeEntity(scope: Scope, nameOrAlias: string) {
    return describeEntity(this.deps, scope, nameOrAlias);
  }

  /** One entity with the memories naming it that the caller sees (memory://entity/{name}, the dashboard). */
  entityWithMemories(scope: Scope, nameOrAlias: string, limit: number) {
    return entityWithMemories(this.deps, scope, nameOrAlias, limit);
  }

  /** The relations of a page of entities (the dashboard's list), at most ENTITY_LIMITS.detailRelations. */
  async entityRelations(scope: Scope, entityIds: string[]) {
    const relations = await this.deps.entities.relationsOf(
      scope,
      entityIds.slice(0, ENTITY_LIMITS.listMax),
      ENTITY_LIMITS.detailRelations,
      scope.agentId,
    );
    return readableRelations(relations);
  }

  /** Another system's entity graph stored as given (an importer), on the write queue. */
  storeEntities(scope: Scope, graph: EntityGraphInput) {
    return this.serial(() => storeEntities(this.deps, scope, graph));
  }

  core(scope: Scope, limit: number, input?: Partial<RecallInput>) {
    return coreMemories(this.deps, scope, limit, input);
  }

  preferences(scope: Scope, limit: number) {
    return preferenceMemories(this.deps, scope, limit);
  }

  /** What a conversation starts with: core memories, plus those relevant to a topic that are not core already. */
  async context(
    scope: Scope,
    topic: string | undefined,
    coreLimit: number,
    topicLimit: number,
  ): Promise<{ core: Memory[]; relevant: FusedCandidate[] }> {
    const core = await coreMemories(this.deps, scope, coreLimit);
    if (!topic) return { core, relevant: [] };
    const coreIds = new Set(core.map((m) => m.id));
    const found = await this.recall(scope, { query: topic }, topicLimit + core.length);
    return { core, relevant: found.results.filter((c) => !coreIds.has(c.memory.id)).slice(0, topicLimit) };
  }
}
