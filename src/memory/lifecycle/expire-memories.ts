/**
 * @module memory/lifecycle/expire-memories
 * Expiry job: active memories whose expires_at has passed (ttl_days / expires_at at save), then those
 * a retention rule expires (e.g. episodic memories after 90 days unless priority 1), become `expired`.
 * The row stays in D1 as a tombstone (recoverable with restore_memory until purged), an `expire` event
 * records why, and its vector leaves the index. Recall already hides rows past expires_at at query
 * time; this job makes the state explicit and starts the purge clock.
 * Cursor: the stage (0 = expires_at, n = rule n-1). Rows leave the selection as they are expired, so
 * a repeated batch finds nothing twice.
 */
import { unindex } from "../indexing";
import type { MemoryPatch } from "../ports";
import type { Memory } from "../types";
import type { BatchResult, JobContext, LifecycleJob } from "./batch-runner";
import { DAY_MS, type RetentionRule } from "./lifecycle-types";

export function describeRule(rule: RetentionRule): string {
  const what = [
    rule.memoryType ? `${rule.memoryType} memories` : "memories",
    rule.category ? `in ${rule.category}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const pin = rule.keepPriorityAtMost !== undefined ? ` unless priority ≤ ${rule.keepPriorityAtMost}` : "";
  return `retention rule: ${what} live ${rule.days} days${pin}`;
}

export function expirePatch(m: Memory, reason: string, actor: string, now: number): MemoryPatch {
  return {
    id: m.id,
    // deleted_at marks when the row left the live set: the purge window counts from it.
    changes: { status: "expired", deletedAt: now, updatedAt: now, indexedAt: null },
    // Only if the row is as selected: an update (new expires_at, priority) or delete since then wins.
    when: { status: m.status, updatedAt: m.updatedAt },
    event: {
      op: "expire",
      before: { status: m.status, expiresAt: m.expiresAt },
      after: { status: "expired", deletedAt: now, reason } as Partial<Memory>,
      actor,
      at: now,
    },
  };
}

async function stageRows(
  ctx: JobContext,
  stage: number,
  limit: number,
): Promise<{ rows: Memory[]; reason: (m: Memory) => string }> {
  const { deps, owner, now, policy } = ctx;
  if (stage === 0) {
    const rows = await deps.repo.listExpiring(owner, now, limit);
    return { rows, reason: () => "expires_at reached" };
  }
  const rule = policy.retentionRules[stage - 1];
  const rows = await deps.repo.listRetentionExpired(owner, rule, now - rule.days * DAY_MS, limit);
  return { rows, reason: () => describeRule(rule) };
}

export const expireJob: LifecycleJob = {
  name: "expire",
  async batch(ctx, cursor, limit): Promise<BatchResult> {
    const stages = 1 + ctx.policy.retentionRules.length;
    for (let stage = Number(cursor ?? 0) || 0; stage < stages; stage++) {
      const { rows, reason } = await stageRows(ctx, stage, limit);
      if (rows.length === 0) continue;
      await ctx.deps.repo.write(
        ctx.owner,
        [],
        rows.map((m) => expirePatch(m, reason(m), ctx.actor, ctx.now)),
      );
      await unindex(
        ctx.deps,
        ctx.owner,
        rows.map((m) => m.id),
      );
      const next = rows.length < limit ? stage + 1 : stage;
      return { processed: rows.length, changed: rows.length, cursor: String(next), done: next >= stages };
    }
    return { processed: 0, changed: 0, cursor: null, done: true };
  },
};
