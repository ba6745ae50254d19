/**
 * @module durable/user-memory
 * UserMemory Durable Object — one per owner (account, namespace, user) via idFromName(ownerAddress). The single writer for its
 * user: it holds per-user state (local vector index, fresh-write buffer, session counters: all behind the service's ports) and calls
 * the memory service. Thin by design: every method unwraps to the service and returns an RpcResult
 * so typed errors survive the RPC boundary.
 */
import { DurableObject } from "cloudflare:workers";
import { buildMemoryService, buildShardStores, shardVectorize } from "../composition";
import { loadConfig, sameVectorIndex } from "../config";
import { consoleLogger } from "../console-logger";
import type { Env } from "../env";
import type {
  DeleteInput,
  EditInput,
  ForgetInput,
  ListInput,
  RecallInput,
  SaveInput,
  StatsInput,
  SummarizeInput,
} from "../memory/contracts";
import { type ConversationRecallInput, recallInConversation } from "../memory/conversation/conversation-recall";
import { type ConversationSaveInput, saveConversationTurns } from "../memory/conversation/conversation-save";
import type { EntityGraphInput, ListEntitiesInput } from "../memory/entities/entity-contracts";
import { MemoryError, type MemoryErrorShape } from "../memory/errors";
import type { ImportGraph } from "../memory/import/import-graph";
import type { NumberedLine } from "../memory/import/import-line";
import type { MaintenanceReport, MaintenanceRequest } from "../memory/lifecycle/lifecycle-types";
import type { MemoryService } from "../memory/memory-service";
import { ownerAddress } from "../memory/owner-address";
import { recallInSession, type SessionRecall } from "../memory/recall/session-recall";
import type { MemoryDeps } from "../memory/service-deps";
import type { Scope } from "../memory/types";
import { dailyUsageView } from "../platform-limits/daily-usage";
import {
  invocationBudget,
  invocationCallsLeft,
  limitedBindings,
  maintenanceWithinCpu,
  moveStepRows,
} from "../platform-limits/invocation";
import { runInvocation } from "../platform-limits/invocation-budget";
import { TOOL_CALL_DEADLINE_MS, withCallDeadline } from "../providers/gate/call-deadline";
import { OwnerHome } from "../shards/owner-home";
import { memoryShard, onlyShard, ownerShard } from "../shards/shard-lookup";
import { type CrossingState, holdsWrites, type RelocationReport, relocateOwner } from "../shards/shard-relocation";
import { RequestTiming, runTimed, type TimingSnapshot } from "../timing/request-timing";
import { DailyUsageRecord } from "./daily-usage-record";
import { heldEntityWrites, heldWrites } from "./held-writes";
import { DoCursorStore } from "./maintenance-state";

/** Where this owner's crossing to another shard stands, between the calls of a move (shard-relocation.ts). */
const CROSSING_KEY = "shard-crossing";

/**
 * Test seam: `instance[overrideDepsForTest](deps => ({ index: failingFake }))` swaps ports of one
 * instance, e.g. a failing VectorIndex. A symbol key is not callable over RPC, so only code running in
 * the object's isolate (cloudflare:test runInDurableObject) can reach it.
 */
export const overrideDepsForTest = Symbol.for("hippocampus.UserMemory.overrideDepsForTest");

/** A method's answer with the object's own timings (Server-Timing: d1, index, rank, D1 counts). */
export type RpcResult<T> = ({ ok: true; value: T } | { ok: false; error: MemoryErrorShape }) & {
  timing: TimingSnapshot;
};

type DepsOverride = (deps: MemoryDeps) => Partial<MemoryDeps>;

const withOverride = (service: MemoryService, override: DepsOverride) =>
  service.withDeps({ ...service.deps, ...override(service.deps) });

export class UserMemory extends DurableObject<Env> {
  private service: MemoryService | null = null;
  private owner: string | null = null;
  /**
   * Where this owner's rows are (docs/shards.md): resolved on the first call and kept; only this object
   * moves its owner (relocate), switching it on the way. The service's stores follow it.
   */
  private ownerHome: OwnerHome | null = null;
  private overrides: DepsOverride[] = [];
  private crossingLoaded = false;
  /** Today's D1 rows and Workers AI calls of this user (memory_stats' daily usage). */
  private readonly usage: DailyUsageRecord;

  /** Its bindings under PLATFORM_LIMITS: each call into the object is an invocation of its own (run). */
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, limitedBindings(env));
    this.usage = new DailyUsageRecord(ctx.storage);
  }

  /** Built on first use, so a config error surfaces as the call's error, not the object's construction. */
  private get home(): OwnerHome {
    const config = loadConfig(this.env);
    this.ownerHome ??= new OwnerHome({
      storesOf: (shard) => buildShardStores(this.env, config, shard),
      hold: (s) => ({ repo: heldWrites(s.repo), entities: heldEntityWrites(s.entities), index: s.index }),
      indexOnShard: config.VECTOR_INDEX === "vectorize",
    });
    return this.ownerHome;
  }

  private get svc(): MemoryService {
    if (this.service === null) {
      this.home.settle(onlyShard(this.env, loadConfig(this.env)));
      this.home.home();
      let service = buildMemoryService(this.env, loadConfig(this.env), this.ctx.storage.sql, this.home.stores);
      for (const override of this.overrides) service = withOverride(service, override);
      this.service = service;
    }
    return this.service;
  }

  private async resolveHome(scope: Scope): Promise<void> {
    if (!this.home.known) this.home.settle(await ownerShard(this.env, loadConfig(this.env), scope));
  }

  /** After an eviction mid-crossing: writes stay held until the crossing's next step switches. */
  private async loadCrossing(): Promise<void> {
    if (this.crossingLoaded) return;
    this.crossingLoaded = true;
    if (holdsWrites((await this.ctx.storage.get<CrossingState>(CROSSING_KEY)) ?? null)) this.home.holdWrites(true);
  }

  /** A DO named for one user must never serve another: the first scope pins the owner. */
  private async checkOwner(scope: Scope): Promise<void> {
    const key = ownerAddress(scope);
    this.owner ??= (await this.ctx.storage.get<string>("owner")) ?? null;
    if (this.owner === null) {
      await this.ctx.storage.put("owner", key);
      this.owner = key;
    }
    if (this.owner !== key) throw new MemoryError("forbidden", "This memory store belongs to another user");
  }

  /**
   * Every method: owner check, the operation timed and metered on its own recorder, errors as data,
   * and one overall deadline from the moment the call arrives (queue wait included): no model call it
   * makes waits past it (providers/gate/call-deadline.ts), so a slow upstream holds the user's write
   * queue for at most the deadline, not a timeout per model call.
   */
  private async run<T>(scope: Scope, op: () => Promise<T>): Promise<RpcResult<T>> {
    const timing = new RequestTiming();
    const budget = invocationBudget(this.env);
    const result = await runTimed(timing, () =>
      withCallDeadline(TOOL_CALL_DEADLINE_MS, () => runInvocation(budget, () => this.attempt(scope, op))),
    );
    const snapshot = timing.snapshot();
    // The call's D1 rows (D1's own meta, storage/metered-d1.ts) and Workers AI calls, added to today's record.
    await this.usage.add(
      { d1RowsRead: snapshot.d1RowsRead, d1RowsWritten: snapshot.d1RowsWritten, ai: budget.ai },
      Date.now(),
    );
    return { ...result, timing: snapshot };
  }

  private async attempt<T>(
    scope: Scope,
    op: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: MemoryErrorShape }> {
    try {
      await this.checkOwner(scope);
      await this.resolveHome(scope);
      await this.loadCrossing();
      return { ok: true, value: await op() };
    } catch (err) {
      if (err instanceof MemoryError) return { ok: false, error: err.toJSON() };
      consoleLogger.error("unexpected error in UserMemory", { error: String(err), stack: (err as Error)?.stack });
      return { ok: false, error: { code: "internal", message: "Internal error" } };
    }
  }

  save(scope: Scope, input: SaveInput) {
    return this.run(scope, () => this.svc.save(scope, input));
  }

  summarize(scope: Scope, input: SummarizeInput) {
    return this.run(scope, () => this.svc.summarize(scope, input));
  }

  /** Bulk import of validated lines and their entity graph (http/import-route.ts); all the lines land or none. */
  import(scope: Scope, lines: NumberedLine[], graph?: ImportGraph) {
    return this.run(scope, () => this.svc.import(scope, lines, graph));
  }

  recall(scope: Scope, input: RecallInput): Promise<RpcResult<SessionRecall>> {
    return this.run(scope, () => recallInSession(this.svc, scope, input));
  }

  /** The memory router (src/router/): a chat turn's recall, progressive per conversation. */
  recallForConversation(scope: Scope, input: ConversationRecallInput) {
    return this.run(scope, () => recallInConversation(this.svc, scope, input));
  }

  /** The memory router: the turn's unsaved user messages through the summarize pipeline; counts only. */
  saveConversation(scope: Scope, input: ConversationSaveInput) {
    return this.run(scope, async () => {
      const { saved, result } = await saveConversationTurns(this.svc, scope, input);
      return { saved, stored: result?.outcomes.filter((o) => o.id !== null).length ?? 0 };
    });
  }

  update(scope: Scope, input: EditInput) {
    return this.run(scope, () => this.svc.update(scope, input));
  }

  delete(scope: Scope, input: DeleteInput) {
    return this.run(scope, () => this.svc.delete(scope, input));
  }

  restore(scope: Scope, id: string) {
    return this.run(scope, () => this.svc.restore(scope, id));
  }

  list(scope: Scope, input: ListInput) {
    return this.run(scope, () => this.svc.list(scope, input));
  }

  forget(scope: Scope, input: ForgetInput) {
    return this.run(scope, () => this.svc.forget(scope, input));
  }

  /** Dashboard only: a person releases a quarantined memory (no MCP tool reaches this). */
  release(scope: Scope, id: string) {
    return this.run(scope, () => this.svc.release(scope, id));
  }

  /** Dashboard search: the recall pipeline with its scores, no session shaping, no access counting. */
  search(scope: Scope, input: RecallInput, limit: number) {
    return this.run(scope, () => this.svc.recall(scope, input, limit, { touch: false }));
  }

  activity(scope: Scope, since: number) {
    return this.run(scope, () => this.svc.activity(scope, since));
  }

  history(scope: Scope, id: string) {
    return this.run(scope, () => this.svc.history(scope, id));
  }

  /** The service's counts, with this user's usage of today against the plan's daily allowances. */
  stats(scope: Scope, input?: StatsInput) {
    return this.run(scope, async () => {
      const now = Date.now();
      const daily = dailyUsageView(await this.usage.today(now), loadConfig(this.env).PLATFORM_LIMITS, now);
      return { ...(await this.svc.stats(scope, input)), daily };
    });
  }

  get(scope: Scope, id: string) {
    return this.run(scope, () => this.svc.get(scope, id));
  }

  /** One memory only if recall could list it for this caller (ChatGPT's fetch). */
  fetchListed(scope: Scope, id: string, includeSuperseded: boolean) {
    return this.run(scope, () => this.svc.fetchListed(scope, id, includeSuperseded));
  }

  /** A page of the owner's entities (memory://entities, the dashboard). */
  listEntities(scope: Scope, input: ListEntitiesInput) {
    return this.run(scope, () => this.svc.listEntities(scope, input));
  }

  /** One entity by name or alias; null when the owner has none by that name. */
  describeEntity(scope: Scope, nameOrAlias: string) {
    return this.run(scope, () => this.svc.describeEntity(scope, nameOrAlias));
  }

  /** One entity with the memories naming it that the caller sees; null when none by that name. */
  entityWithMemories(scope: Scope, nameOrAlias: string, limit: number) {
    return this.run(scope, () => this.svc.entityWithMemories(scope, nameOrAlias, limit));
  }

  /** The relations of these entities, on either side (the dashboard's list). */
  entityRelations(scope: Scope, entityIds: string[]) {
    return this.run(scope, () => this.svc.entityRelations(scope, entityIds));
  }

  /** An importer's entity graph (entities, relations, which memories name them), stored as given. */
  storeEntities(scope: Scope, graph: EntityGraphInput) {
    return this.run(scope, () => this.svc.storeEntities(scope, graph));
  }

  preferences(scope: Scope, limit: number) {
    return this.run(scope, () => this.svc.preferences(scope, limit));
  }

  context(scope: Scope, topic: string | undefined, coreLimit: number, topicLimit: number) {
    return this.run(scope, () => this.svc.context(scope, topic, coreLimit, topicLimit));
  }

  /** Lifecycle jobs for this user (cron fan-out and on-demand tools), on the service's one write queue. */
  maintain(scope: Scope, request: MaintenanceRequest): Promise<RpcResult<MaintenanceReport>> {
    const sized = maintenanceWithinCpu(loadConfig(this.env), request);
    return this.run(scope, () => this.svc.maintain(scope, sized, new DoCursorStore(this.ctx.storage)));
  }

  /**
   * Admin (jobs/move-account.ts): one step of this owner's crossing from one shard to another, on
   * the write queue, as much as this invocation's limits allow; repeating it is safe and goes on
   * where the last step stopped (durable/shard-relocation.ts).
   */
  relocate(scope: Scope, move: { from: string; to: string }): Promise<RpcResult<RelocationReport>> {
    return this.run(scope, () =>
      this.svc.exclusive(() => {
        const config = loadConfig(this.env);
        return relocateOwner({
          owner: scope,
          current: this.home.home(),
          from: memoryShard(this.env, config, move.from),
          to: memoryShard(this.env, config, move.to),
          home: this.env.DB,
          store: {
            get: async () => (await this.ctx.storage.get<CrossingState>(CROSSING_KEY)) ?? null,
            put: (state) =>
              state
                ? this.ctx.storage.put(CROSSING_KEY, state)
                : this.ctx.storage.delete(CROSSING_KEY).then(() => undefined),
          },
          callsLeft: invocationCallsLeft,
          sourceIndex:
            this.home.shardIndex() !== null && !sameVectorIndex(config, move.from, move.to)
              ? shardVectorize(this.env, config, move.from)
              : null,
          maxRows: moveStepRows(config),
          holdWrites: (on) => this.home.holdWrites(on),
          switchTo: (home) => this.home.switchTo(home),
        });
      }),
    );
  }

  /** With several shards, an override made before the first call applies once the shard is known. */
  [overrideDepsForTest](override: DepsOverride): void {
    this.overrides.push(override);
    if (this.service) this.service = withOverride(this.service, override);
    else {
      this.home.settle(onlyShard(this.env, loadConfig(this.env)));
      if (this.home.known) void this.svc;
    }
  }
}
