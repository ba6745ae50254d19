/**
 * @module platform-limits/invocation
 * One invocation under PLATFORM_LIMITS: its budget (D1 calls, subrequests), its limited bindings,
 * and the CPU-time sizing (cpu-sizing.ts) applied to the config a caller already holds. The Worker
 * entry, the Durable Object and the jobs run their work through these; nothing here picks an adapter.
 */
import { type Config, loadConfig } from "../config";
import type { ImportSize } from "../memory/import/import-size";
import type { MaintenanceRequest } from "../memory/lifecycle/lifecycle-types";
import { maintenanceRowsByCpu, moveRowsByCpu, refuseImportOverCpu } from "./cpu-sizing";
import { currentInvocation, InvocationBudget, runInvocation } from "./invocation-budget";
import { limitedEnv } from "./limited-env";
import { DEFAULT_PLATFORM_LIMITS, type PlatformLimits } from "./platform-limits";
import { meteredAiEnv } from "./workers-ai-usage";

/** PLATFORM_LIMITS of this deployment; the paid figures while the config cannot be read (its error surfaces elsewhere). */
export function platformLimits(env: object): PlatformLimits {
  try {
    return loadConfig(env).PLATFORM_LIMITS;
  } catch {
    return DEFAULT_PLATFORM_LIMITS;
  }
}

/**
 * The bindings under PLATFORM_LIMITS (limited-env.ts): D1 limited, Durable Object calls counted; and
 * Workers AI calls counted on the invocation on every plan (workers-ai-usage.ts: the day's usage).
 */
export function limitedBindings<E extends object>(env: E): E {
  return meteredAiEnv(limitedEnv(env, platformLimits(env)));
}

/** A fresh budget for one invocation (a Worker request, a Cron run, a Durable Object call). */
export function invocationBudget(env: object): InvocationBudget {
  return new InvocationBudget(platformLimits(env));
}

/** D1 calls the current invocation may still make (unbounded outside any invocation). */
export function invocationCallsLeft(): number {
  return currentInvocation()?.callsLeft() ?? Number.POSITIVE_INFINITY;
}

/** Subrequests the current invocation may still make (a Cron run's calls to owners' objects). */
export function invocationSubrequestsLeft(): number {
  return currentInvocation()?.subrequestsLeft() ?? Number.POSITIVE_INFINITY;
}

/** Runs `work` as one invocation: its own budget, the limited bindings. */
export function asInvocation<E extends object, T>(env: E, work: (env: E) => T): T {
  return runInvocation(invocationBudget(env), () => work(limitedBindings(env)));
}

/** A maintenance request with its rows capped at what one object call's CPU time carries (cpu-sizing.ts). */
export function maintenanceWithinCpu(config: Config, request: MaintenanceRequest): MaintenanceRequest {
  return maintenanceRowsByCpu(config.PLATFORM_LIMITS, request);
}

/** Refuses an import request of more items than one invocation's CPU time carries (cpu-sizing.ts). */
export function checkImportCpu(config: Config, size: ImportSize): void {
  refuseImportOverCpu(config.PLATFORM_LIMITS, size);
}

/** Rows one step of a shard move may read within one object call's CPU time (cpu-sizing.ts). */
export function moveStepRows(config: Config): number {
  return moveRowsByCpu(config.PLATFORM_LIMITS);
}
