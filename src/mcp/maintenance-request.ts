/**
 * @module mcp/maintenance-request
 * The maintenance request an on-demand tool (consolidate_memories, regenerate_embeddings) sends to
 * the user's Durable Object: the same jobs, policy and bounds the Cron run uses, for one user now.
 */
import { lifecyclePolicy } from "../config";
import type { LifecycleJobName, MaintenanceRequest } from "../memory/lifecycle/lifecycle-types";
import type { ToolContext } from "./tool-context";

export function onDemandMaintenance(
  ctx: ToolContext,
  jobs: LifecycleJobName[],
  full: MaintenanceRequest["full"],
): MaintenanceRequest {
  return {
    now: Date.now(),
    jobs,
    full,
    policy: lifecyclePolicy(ctx.config),
    budget: { maxMs: ctx.config.LIFECYCLE_RUN_BUDGET_MS, maxRows: ctx.config.LIFECYCLE_USER_MAX_ROWS },
  };
}
