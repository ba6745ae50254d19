/**
 * @module memory/manage/forget-memories
 * Bulk soft delete by filter, with a dry run. Bounded per call so one request never runs past a
 * Worker's limits; the answer says how many matched beyond the bound.
 */
import type { ForgetInput } from "../contracts";
import { invalidInput } from "../errors";
import type { MemoryDeps } from "../service-deps";
import type { Memory, Scope } from "../types";
import { deleteMemories } from "./edit-memories";

const MAX_PER_CALL = 1000;
const PAGE = 200;

export async function forgetMemories(
  deps: MemoryDeps,
  scope: Scope,
  input: ForgetInput,
): Promise<{ matched: number; deleted: string[]; sample: Memory[]; dryRun: boolean; truncated: boolean }> {
  const hasFilter = [input.older_than_days, input.category, input.tags, input.max_priority, input.source].some(
    (v) => v !== undefined,
  );
  if (!hasFilter)
    throw invalidInput("filter", "give at least one of older_than_days, category, tags, max_priority, source");
  const now = deps.clock.now();
  const matched: Memory[] = [];
  let cursor: { key: number; id: string } | undefined;
  while (matched.length < MAX_PER_CALL + 1) {
    const page = await deps.repo.list(scope, {
      statuses: ["active"],
      category: input.category,
      tags: input.tags,
      source: input.source,
      visibleToAgent: scope.agentId,
      minPriorityNumber: input.max_priority,
      createdBefore: input.older_than_days !== undefined ? now - input.older_than_days * 86_400_000 : undefined,
      order: "newest",
      limit: PAGE,
      cursor,
    });
    matched.push(...page);
    if (page.length < PAGE) break;
    const last = page[page.length - 1];
    cursor = { key: last.createdAt, id: last.id };
  }
  const truncated = matched.length > MAX_PER_CALL;
  const targets = matched.slice(0, MAX_PER_CALL);
  if (input.dry_run)
    return { matched: matched.length, deleted: [], sample: targets.slice(0, 10), dryRun: true, truncated };
  const result = await deleteMemories(
    deps,
    scope,
    targets.map((m) => m.id),
  );
  return { matched: matched.length, deleted: result.deleted, sample: targets.slice(0, 10), dryRun: false, truncated };
}
