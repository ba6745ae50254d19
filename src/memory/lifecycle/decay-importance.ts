/**
 * @module memory/lifecycle/decay-importance
 * Passive forgetting: the importance of a memory that has never been recalled halves every
 * IMPORTANCE_HALF_LIFE_DAYS (default 30), down to a floor. Importance weighs into recall ranking
 * (retrieval-weights.ts importanceBoost, ×0.9…×1.1); nothing is ever deleted or hidden by decay.
 * A recalled memory (access_count > 0) stops decaying and keeps the importance it has.
 *
 * Importance is stored, so the job writes it in steps: a row is due again once its importance would
 * have fallen by another DECAY_STEP (10 %) — about every 4.6 days at a 30-day half-life — which
 * bounds writes to ~30 per memory over its whole life. Each step multiplies by
 * 0.5^(elapsed / half-life) since the last step (decayed_at, else created_at), so a late or repeated
 * run gives the same curve: decay is idempotent in time, not per run.
 */
import type { BatchResult, LifecycleJob } from "./batch-runner";
import { DAY_MS } from "./lifecycle-types";

/** Lowest importance decay reaches; must equal the literal in the partial index memories_decay_due_idx. */
export const DECAY_FLOOR = 0.05;
/** Re-evaluate once importance would have dropped to this share of its last value. */
export const DECAY_STEP = 0.9;

/** Milliseconds between two decay steps of one memory. */
export function decayStepMs(halfLifeDays: number): number {
  return halfLifeDays * DAY_MS * Math.log2(1 / DECAY_STEP);
}

/** Importance after `elapsedMs` of not being recalled, never below the floor, rounded to 4 decimals. */
export function decayedImportance(importance: number, elapsedMs: number, halfLifeDays: number): number {
  const factor = 0.5 ** (Math.max(0, elapsedMs) / (halfLifeDays * DAY_MS));
  return Math.max(DECAY_FLOOR, Math.round(importance * factor * 10_000) / 10_000);
}

export const decayJob: LifecycleJob = {
  name: "decay",
  async batch(ctx, _cursor, limit): Promise<BatchResult> {
    const { deps, owner, now, policy } = ctx;
    const due = await deps.repo.listDecayDue(owner, now - decayStepMs(policy.halfLifeDays), limit);
    if (due.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
    const updates = due.map((m) => ({
      id: m.id,
      importance: decayedImportance(m.importance, now - (m.decayedAt ?? m.createdAt), policy.halfLifeDays),
    }));
    // decayed_at moves to `now` for every due row, so each leaves the selection even when rounding kept its value.
    await deps.repo.setDecayedImportance(owner, updates, now);
    const changed = updates.filter((u, i) => u.importance !== due[i].importance).length;
    return { processed: due.length, changed, cursor: null, done: due.length < limit };
  },
};
