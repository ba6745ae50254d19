/**
 * @module memory/lifecycle/due-query
 * Turns a lifecycle policy and a reference time into the cutoffs the cron's cross-user scan uses to
 * find owners with work due (LifecycleScan.ownersDue) — the same cutoffs the jobs apply per owner.
 */
import type { DueQuery } from "../ports";
import { decayStepMs } from "./decay-importance";
import { DAY_MS, type LifecyclePolicy } from "./lifecycle-types";

export function dueQuery(policy: LifecyclePolicy, now: number, model: string): DueQuery {
  return {
    now,
    purgeCutoff: now - policy.retentionDays * DAY_MS,
    decayCutoff: now - decayStepMs(policy.halfLifeDays),
    model,
    retention: policy.retentionRules.map((rule) => ({ rule, createdBefore: now - rule.days * DAY_MS })),
  };
}
