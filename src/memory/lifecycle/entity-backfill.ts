/**
 * @module memory/lifecycle/entity-backfill
 * The Cron job that extracts the entities of memories stored before entities existed (or whose
 * entities could not be stored with them): bounded pages of active memories with entities_at null,
 * each extracted by the offline rules and stored in one batch that also marks them, so a page
 * leaves the selection once done and a run that stops anywhere resumes where it stopped.
 */
import { extractEntities } from "../entities/extract-entities";
import type { BatchResult, LifecycleJob } from "./batch-runner";

export const entityBackfillJob: LifecycleJob = {
  name: "entities",
  async batch(ctx, _cursor, limit): Promise<BatchResult> {
    const { deps, owner, now } = ctx;
    const page = await deps.repo.listActivePage(owner, { after: null, limit, pending: "entities" });
    if (page.length === 0) return { processed: 0, changed: 0, cursor: null, done: true };
    const items = page.map((m) => extractEntities(m.id, m.content));
    await deps.entities.replaceMentions(owner, items, now);
    const changed = items.filter((i) => i.entities.length > 0).length;
    return { processed: page.length, changed, cursor: null, done: page.length < limit };
  },
};
