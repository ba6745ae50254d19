/**
 * @module platform-limits/cpu-sizing
 * The steps that scale with data, sized by one invocation's CPU time (`cpu_ms_per_invocation`): an
 * export part's pages, an import request's lines, a maintenance call's rows and a shard move's rows
 * per step, each at most `cpuUnits` of its unit (platform-limits.ts, from the measured µs per unit).
 * Pure functions of PLATFORM_LIMITS; composition.ts wires config and the invocation to them.
 */
import type { ImportSize } from "../memory/import/import-size";
import type { MaintenanceRequest } from "../memory/lifecycle/lifecycle-types";
import { limitExceeded } from "./invocation-budget";
import { cpuUnits, enforced, type PlatformLimits } from "./platform-limits";

/** An export part's CPU: pages of at most `maxPage` memories, and whether one more fits after `rows`. */
export interface ExportPartCpu {
  pageSize: number;
  fits(rows: number): boolean;
}

/** Pages of `maxPage` rows, or fewer when the part's CPU cannot carry that many; a part ends before its CPU is spent. */
export function exportPartByCpu(limits: PlatformLimits, maxPage: number): ExportPartCpu {
  const rowsByCpu = cpuUnits(limits, "exportMemory");
  const pageSize = Math.min(maxPage, rowsByCpu);
  return { pageSize, fits: (rows) => rows + pageSize <= rowsByCpu };
}

/**
 * A maintenance request as one object call may run it: its rows capped at what the invocation's CPU
 * time carries (measured on index repair) when that is fewer than its budget allows. The rest waits
 * for the next call, from the jobs' saved cursors.
 */
export function maintenanceRowsByCpu(limits: PlatformLimits, request: MaintenanceRequest): MaintenanceRequest {
  const rows = cpuUnits(limits, "lifecycleRow");
  return rows >= request.budget.maxRows ? request : { ...request, budget: { ...request.budget, maxRows: rows } };
}

/**
 * Refuses an import request of more items than one invocation's CPU time carries: every line, history
 * event and part of the entity graph it brings (memory/import/import-size.ts), each at least a line's
 * parse and write. The Worker's validation and the object's write of them would overrun it, and a
 * request cut off by the platform mid-write is not rolled back. Refused before anything is written,
 * naming the limit.
 */
export function refuseImportOverCpu(limits: PlatformLimits, size: ImportSize): void {
  const max = cpuUnits(limits, "importLine");
  if (!enforced(limits) || size.total <= max) return;
  const what =
    size.total === size.lines
      ? `an import of ${size.lines} lines, when at most ${max} fit one request's CPU time; send at most ${max} lines per request`
      : `an import of ${size.total} items (${size.lines} lines, ${size.history} history events, ${size.graph} entities, names and relations), when at most ${max} items fit one request's CPU time; send at most ${max} items (lines, history events, entities and relations) per request`;
  throw limitExceeded(limits, "cpu_ms_per_invocation", what);
}

/**
 * Rows one step of a shard move may read, copied to the target or read back to verify: each passes
 * through the object (hashed, and a copied one written out as JSON). The step's D1 allowance
 * (durable/shard-relocation.ts) may end it sooner; the smaller wins.
 */
export function moveRowsByCpu(limits: PlatformLimits): number {
  return cpuUnits(limits, "moveRow");
}
