/**
 * @module memory/recall/fetch-listed
 * One memory by id as a search result's reader sees it (ChatGPT's `fetch`): only what recall could
 * have listed for the same caller — active, or superseded when asked for; never quarantined, deleted
 * or expired, nor private to another agent (a call without an agent sees shared memories only, as
 * recall does). Everything else is "not found", never "forbidden", which would confirm it exists.
 */
import { notFound } from "../errors";
import type { MemoryDeps } from "../service-deps";
import type { Memory, Scope } from "../types";
import { passesRecallFilter, recallFilterFor } from "./recall-filters";

export async function fetchListed(
  deps: MemoryDeps,
  scope: Scope,
  id: string,
  includeSuperseded: boolean,
): Promise<Memory> {
  const memory = await deps.repo.get(scope, id);
  const filter = recallFilterFor(scope, { include_superseded: includeSuperseded }, deps.clock.now());
  if (!memory || !passesRecallFilter(memory, filter)) throw notFound(`Memory ${id}`);
  return memory;
}
