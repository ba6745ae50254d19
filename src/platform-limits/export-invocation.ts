/**
 * @module platform-limits/export-invocation
 * An export part inside the current request's invocation: how many rows a page reads and whether one
 * more page fits what the invocation may still ask of D1 and the rows its CPU time carries.
 */
import type { ExportReader } from "../memory/ports";
import { exportPartByCpu } from "./cpu-sizing";
import { currentInvocation, runInvocation } from "./invocation-budget";
import type { PlatformLimits } from "./platform-limits";

/** Queries kept back from an export part for the request's own work after its last page (the key's last use). */
const EXPORT_RESERVE_QUERIES = 5;

export interface ExportPart {
  reader: ExportReader;
  pageSize: number;
  more: () => boolean;
}

/**
 * The reader's calls run in the request's invocation (a stream's pull runs outside the request's
 * async context), `pageSize` is the rows a page reads (`fullPage`, or fewer when the invocation's CPU
 * time cannot carry that many), and `more` says whether one more page fits both what the invocation
 * may still ask of D1 (`pageQueries` of a page) and the rows its CPU time carries (cpu-sizing.ts).
 */
export function exportInvocation(
  reader: ExportReader,
  limits: PlatformLimits,
  fullPage: number,
  pageQueries: (pageSize: number) => number,
): ExportPart {
  const cpu = exportPartByCpu(limits, fullPage);
  const pageSize = cpu.pageSize;
  const budget = currentInvocation();
  if (!budget) return { reader, pageSize, more: () => true };
  let rows = 0;
  const inside = <T>(call: () => Promise<T>) => runInvocation(budget, call);
  const counted = async <T extends unknown[]>(call: () => Promise<T>) => {
    const page = await inside(call);
    rows += page.length;
    return page;
  };
  const within: ExportReader = {
    exportPage: (owner, filter, after, limit) => counted(() => reader.exportPage(owner, filter, after, limit)),
    count: (owner, filter) => inside(() => reader.count(owner, filter)),
    eventsOf: (owner, ids) => inside(() => reader.eventsOf(owner, ids)),
    statedOf: (owner, ids) => inside(() => reader.statedOf(owner, ids)),
    entityPage: (owner, after, limit) => counted(() => reader.entityPage(owner, after, limit)),
    givenRelationPage: (owner, after, limit) => counted(() => reader.givenRelationPage(owner, after, limit)),
  };
  const cost = pageQueries(pageSize) + EXPORT_RESERVE_QUERIES;
  return { reader: within, pageSize, more: () => budget.callsLeft() >= cost && cpu.fits(rows) };
}
