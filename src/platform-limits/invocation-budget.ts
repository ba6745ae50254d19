/**
 * @module platform-limits/invocation-budget
 * What one invocation has spent of its per-invocation limits: D1 statements and subrequests. One
 * budget lives for one Worker request, one Cron run, and one Durable Object call — a Durable Object
 * is "a special kind of Worker" whose every incoming request is its own invocation (Durable Objects
 * limits page), so a call into the object starts afresh. An AsyncLocalStorage finds the current
 * budget, so the D1 wrapper (limited-d1.ts) needs no extra arguments; work the runtime resumes outside
 * that context (a streamed export's pull) re-enters it with `runInvocation`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { MemoryError } from "../memory/errors";
import { type AiTally, emptyAiTally } from "./daily-usage";
import { enforced, type PlatformLimits } from "./platform-limits";

type Counted = "d1_queries_per_invocation" | "subrequests_per_invocation";

const PLAN_NAMES: Record<PlatformLimits["plan"], string> = {
  paid: "Workers Paid",
  free: "Workers Free",
  custom: "PLATFORM_LIMITS",
  off: "no plan",
};

/** The one error a request past a platform limit gets: it names the limit, the figure and the plan. */
export function limitExceeded(limits: PlatformLimits, limit: keyof PlatformLimits, detail: string): MemoryError {
  const max = limits[limit];
  return new MemoryError(
    "limit_exceeded",
    `platform limit ${limit} (${max}, ${PLAN_NAMES[limits.plan]}): ${detail}; nothing of this step was written`,
    limit,
  );
}

export class InvocationBudget {
  private spent: Record<Counted, number> = { d1_queries_per_invocation: 0, subrequests_per_invocation: 0 };
  /** Workers AI calls this invocation made (platform-limits/workers-ai-usage.ts), for the day's usage. */
  readonly ai: AiTally = emptyAiTally();

  constructor(readonly limits: PlatformLimits) {}

  /** D1 statements this invocation has run so far. */
  get d1Queries(): number {
    return this.spent.d1_queries_per_invocation;
  }

  get subrequests(): number {
    return this.spent.subrequests_per_invocation;
  }

  /** D1 statements still allowed (the paid figure when limits are off). */
  d1QueriesLeft(): number {
    return this.limits.d1_queries_per_invocation - this.d1Queries;
  }

  /** D1 calls this invocation may still make: a statement outside a batch is a query and a subrequest. */
  callsLeft(): number {
    return Math.min(this.d1QueriesLeft(), this.limits.subrequests_per_invocation - this.subrequests);
  }

  /** Subrequests (D1 calls, Durable Object calls) this invocation may still make. */
  subrequestsLeft(): number {
    return this.limits.subrequests_per_invocation - this.subrequests;
  }

  /** Takes `n` of a counted limit, or throws before anything is sent when they do not fit. */
  take(limit: Counted, n: number, what: string): void {
    const after = this.spent[limit] + n;
    if (enforced(this.limits) && after > this.limits[limit])
      throw limitExceeded(this.limits, limit, `${what} would make it ${after}`);
    this.spent[limit] = after;
  }
}

const store = new AsyncLocalStorage<InvocationBudget>();

/** Runs `work` as one invocation with `budget`. */
export function runInvocation<T>(budget: InvocationBudget, work: () => T): T {
  return store.run(budget, work);
}

/** The current invocation's budget, if any. */
export function currentInvocation(): InvocationBudget | undefined {
  return store.getStore();
}
