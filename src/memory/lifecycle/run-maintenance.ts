/**
 * @module memory/lifecycle/run-maintenance
 * One maintenance request for one user: the requested jobs in LIFECYCLE_JOBS order under one shared
 * budget. The cron (jobs/scheduled.ts) and the on-demand tools (consolidate_memories,
 * regenerate_embeddings) both end here, through the user's Durable Object — the same code either way.
 */
import type { CursorStore, MemoryRepo } from "../ports";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import { Budget, type LifecycleJob, runJob } from "./batch-runner";
import { consolidateJob } from "./consolidate-memories";
import { decayJob } from "./decay-importance";
import { entityBackfillJob } from "./entity-backfill";
import { expireJob } from "./expire-memories";
import {
  type JobReport,
  LIFECYCLE_JOBS,
  type LifecycleJobName,
  type MaintenanceReport,
  type MaintenanceRequest,
} from "./lifecycle-types";
import { migrateEmbeddingsJob } from "./migrate-embeddings";
import { purgeJob } from "./purge-tombstones";
import { repairIndexJob } from "./repair-index";

const JOBS: Record<LifecycleJobName, LifecycleJob> = {
  expire: expireJob,
  purge: purgeJob,
  repair: repairIndexJob,
  consolidate: consolidateJob,
  decay: decayJob,
  migrate: migrateEmbeddingsJob,
  entities: entityBackfillJob,
};

function isFull(job: LifecycleJobName, request: MaintenanceRequest): boolean {
  if (job === "consolidate") return request.full?.consolidate === true;
  if (job === "migrate") return request.full?.reembed === true;
  return false;
}

/** The same repo, counting its calls: the budget stops a request before D1's per-invocation query cap. */
function countCalls(repo: MemoryRepo, calls: { n: number }): MemoryRepo {
  return new Proxy(repo, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.n++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

export async function runMaintenance(
  deps: MemoryDeps,
  owner: Owner,
  actor: string,
  request: MaintenanceRequest,
  cursors: CursorStore,
  timer: () => number = Date.now,
): Promise<MaintenanceReport> {
  const started = timer();
  const calls = { n: 0 };
  const counted: MemoryDeps = { ...deps, repo: countCalls(deps.repo, calls) };
  const d1Left = deps.invocation ? () => deps.invocation!.callsLeft() : undefined;
  const budget = new Budget(request.budget, timer, () => calls.n, d1Left);
  const memo = new Map<string, unknown>();
  const reports: JobReport[] = [];
  for (const name of LIFECYCLE_JOBS.filter((j) => request.jobs.includes(j))) {
    const ctx = {
      deps: counted,
      owner,
      actor,
      now: request.now,
      policy: request.policy,
      full: isFull(name, request),
      memo,
    };
    reports.push(await runJob(JOBS[name], ctx, cursors, budget));
  }
  return { jobs: reports, complete: reports.every((r) => r.complete), elapsedMs: timer() - started };
}
