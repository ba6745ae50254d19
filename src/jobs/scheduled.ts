/**
 * @module jobs/scheduled
 * The Cron Trigger's work (src/index.ts `scheduled`): ask every shard which users have lifecycle work due —
 * cheap, bounded, indexed queries (storage/d1-lifecycle-queries.ts) — then fan out to those users'
 * Durable Objects with bounded concurrency, each with a slice of the run's time budget. The run stops
 * handing out work when its budget (LIFECYCLE_RUN_BUDGET_MS, default 20 s of the 30 s a cron under an
 * hour may take) is spent; users left over still match the queries and are served by the next run.
 * Owners are named by D1 rows only, so a run never touches a user who has no work. A run is one
 * invocation: it calls no more owners' objects than its subrequests left allow (PLATFORM_LIMITS; each
 * call is a subrequest), and each object's maintenance is an invocation of its own with its own D1
 * allowance (memory/lifecycle/batch-runner.ts).
 */
import { type Config, embeddingModelKey, lifecyclePolicy, loadConfig } from "../config";
import type { Env } from "../env";
import { dueQuery } from "../memory/lifecycle/due-query";
import type { JobReport, LifecyclePolicy, MaintenanceReport } from "../memory/lifecycle/lifecycle-types";
import { ownerAddress } from "../memory/owner-address";
import type { DueOwner, DueQuery, LifecycleScan } from "../memory/ports";
import { safeErrorText } from "../memory/safe-error-text";
import { invocationSubrequestsLeft } from "../platform-limits/invocation";
import { memoryShards } from "../shards/shard-lookup";
import { boundedMap } from "./bounded-map";

/** Time a Durable Object needs at least to do one useful batch; less than this left, and the owner waits. */
const MIN_SLICE_MS = 1_000;
/** Kept back from each slice for the RPC round trip. */
const RPC_MARGIN_MS = 250;
/** Subrequests a run keeps back after its scans (its log line needs none; this is headroom). */
const SUBREQUEST_RESERVE = 2;

export type OwnerOutcome =
  | { owner: DueOwner; status: "done" | "partial"; report: MaintenanceReport }
  | { owner: DueOwner; status: "skipped" }
  | { owner: DueOwner; status: "failed"; error: string };

export interface ScheduledSummary {
  owners: number;
  done: number;
  partial: number;
  skipped: number;
  failed: number;
  totals: Record<string, { processed: number; changed: number }>;
  elapsedMs: number;
  outcomes: OwnerOutcome[];
}

interface RunContext {
  env: Env;
  config: Config;
  policy: LifecyclePolicy;
  now: number;
  deadline: number;
  timer: () => number;
}

async function maintainOwner(run: RunContext, owner: DueOwner): Promise<OwnerOutcome> {
  const left = run.deadline - run.timer() - RPC_MARGIN_MS;
  if (left < MIN_SLICE_MS) return { owner, status: "skipped" };
  const stub = run.env.USER_MEMORY.get(run.env.USER_MEMORY.idFromName(ownerAddress(owner)));
  try {
    const result = await stub.maintain(
      { accountId: owner.accountId, namespace: owner.namespace, userId: owner.userId, actor: "cron" },
      {
        now: run.now,
        jobs: owner.jobs,
        policy: run.policy,
        budget: {
          maxMs: Math.min(run.config.LIFECYCLE_USER_BUDGET_MS, left),
          maxRows: run.config.LIFECYCLE_USER_MAX_ROWS,
        },
      },
    );
    if (!result.ok) return { owner, status: "failed", error: `${result.error.code}: ${result.error.message}` };
    return { owner, status: result.value.complete ? "done" : "partial", report: result.value };
  } catch (err) {
    return { owner, status: "failed", error: safeErrorText(err) };
  }
}

function summarize(outcomes: OwnerOutcome[], elapsedMs: number): ScheduledSummary {
  const totals: ScheduledSummary["totals"] = {};
  const add = (r: JobReport) => {
    const t = (totals[r.job] ??= { processed: 0, changed: 0 });
    t.processed += r.processed;
    t.changed += r.changed;
  };
  for (const o of outcomes) if ("report" in o) o.report.jobs.forEach(add);
  const count = (s: OwnerOutcome["status"]) => outcomes.filter((o) => o.status === s).length;
  return {
    owners: outcomes.length,
    done: count("done"),
    partial: count("partial"),
    skipped: count("skipped"),
    failed: count("failed"),
    totals,
    elapsedMs,
    outcomes,
  };
}

/**
 * Each shard's due owners (docs/shards.md), taken in turn from every shard up to the per-run cap, so a
 * busy shard cannot starve the others; an owner listed twice (its rows mid-move) is served once. Each
 * owner's Durable Object then works on whichever shard holds its rows.
 */
async function ownersDueOnEveryShard(run: RunContext, scan: ScanOf, query: DueQuery): Promise<DueOwner[]> {
  const cap = run.config.LIFECYCLE_USERS_PER_RUN;
  const lists = await Promise.all(memoryShards(run.env, run.config).map((s) => scan(s.db).ownersDue(query, cap)));
  const seen = new Set<string>();
  const owners: DueOwner[] = [];
  for (let i = 0; owners.length < cap && lists.some((l) => i < l.length); i++) {
    for (const list of lists) {
      const owner = list[i];
      if (owner === undefined || owners.length >= cap || seen.has(ownerAddress(owner))) continue;
      seen.add(ownerAddress(owner));
      owners.push(owner);
    }
  }
  return owners;
}

/** Cross-user lifecycle queries of one shard (the composition root builds them). */
export type ScanOf = (db: D1Database) => LifecycleScan;

/** What a cron run is given: the shard scans, and the clock its budget is measured by. */
export interface ScheduledDeps {
  scan: ScanOf;
  timer?: () => number;
}

/** One cron run. `scheduledTime` is the reference time of every cutoff, so a late run decides as if on time. */
export async function runScheduledMaintenance(
  env: Env,
  scheduledTime: number,
  deps: ScheduledDeps,
): Promise<ScheduledSummary> {
  const timer = deps.timer ?? Date.now;
  const config = loadConfig(env);
  const started = timer();
  const policy = lifecyclePolicy(config);
  const run: RunContext = {
    env,
    config,
    policy,
    now: scheduledTime,
    deadline: started + config.LIFECYCLE_RUN_BUDGET_MS,
    timer,
  };
  const due = await ownersDueOnEveryShard(run, deps.scan, dueQuery(policy, scheduledTime, embeddingModelKey(config)));
  // Owners past the run's subrequests wait for the next run, which finds them due still.
  const owners = due.slice(0, Math.max(0, invocationSubrequestsLeft() - SUBREQUEST_RESERVE));
  const outcomes = await boundedMap(owners, config.LIFECYCLE_CONCURRENCY, (owner) => maintainOwner(run, owner));
  const summary = summarize(outcomes, timer() - started);
  const failures = outcomes.filter((o) => o.status === "failed").slice(0, 5);
  console.log(JSON.stringify({ level: "info", message: "lifecycle run", ...summary, outcomes: undefined, failures }));
  return summary;
}
