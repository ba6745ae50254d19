/**
 * @module memory/manage/edit-memories
 * Update, soft delete and restore. Each keeps history (memory_events with before/after) and keeps
 * the derived vector index in step: deleted rows leave the index, restored rows are re-embedded.
 * D1 commits first and the answer is the row as D1 holds it: an embedding or index failure after
 * the commit leaves indexed_at null for the repair job and never turns the answer into an error.
 * Quarantine is left only by a person (releaseMemory): deleting a quarantined memory keeps its
 * status and sets deleted_at, so restore still refuses it; update refuses it.
 */

import type { EditInput } from "../contracts";
import { syncEntities } from "../entities/sync-entities";
import { MemoryError, notFound } from "../errors";
import { embedAndIndex, unindex } from "../indexing";
import { contentHash, dedupeTags } from "../memory-factory";
import type { MemoryPatch } from "../ports";
import type { MemoryDeps } from "../service-deps";
import { indexTokens } from "../text/tokenize";
import type { Memory, Scope } from "../types";
import { editedEventTime, zoneFor } from "../write/event-date";
import { redactText } from "../write/redact-secrets";
import { screenedSummary } from "../write/save-memory";
import { screenContent, screenLabels } from "../write/screen-content";

async function mustGet(deps: MemoryDeps, scope: Scope, id: string): Promise<Memory> {
  const memory = await deps.repo.get(scope, id);
  if (!memory || (memory.agentId !== null && scope.agentId !== undefined && memory.agentId !== scope.agentId))
    throw notFound(`Memory ${id}`);
  return memory;
}

/**
 * The pre-edit values of the changed fields, as history keeps them: redacted again, so a secret
 * stored before a redaction rule existed does not survive in the event log once the text is edited.
 */
function pick(m: Memory, keys: (keyof Memory)[]): Partial<Memory> {
  return Object.fromEntries(
    keys.map((k) => {
      const v = m[k];
      if (typeof v === "string") return [k, redactText(v)];
      if (Array.isArray(v)) return [k, v.map((x) => (typeof x === "string" ? redactText(x) : x))];
      return [k, v];
    }),
  );
}

export async function updateMemory(
  deps: MemoryDeps,
  scope: Scope,
  input: EditInput,
): Promise<{ memory: Memory; redactions: { kind: string; count: number }[] }> {
  const existing = await mustGet(deps, scope, input.id);
  if (existing.status !== "active")
    throw new MemoryError("conflict", `Memory ${input.id} is ${existing.status}; restore it before updating`);
  const now = deps.clock.now();
  const changes: Partial<Memory> = { updatedAt: now };
  if (input.category !== undefined) changes.category = redactText(input.category);
  if (input.tags !== undefined) changes.tags = dedupeTags(input.tags.map(redactText));
  // Labels are screened like content: an instruction-like category or tag quarantines the memory.
  const labelInjection = screenLabels([changes.category, ...(changes.tags ?? [])]);
  if (input.priority !== undefined) changes.priority = input.priority;
  if (input.confidence !== undefined) changes.confidence = input.confidence;
  if (input.memory_type !== undefined) changes.memoryType = input.memory_type;
  if (input.event_time !== undefined) changes.eventTime = Date.parse(input.event_time);
  if (input.expires_at !== undefined)
    changes.expiresAt = input.expires_at === null ? null : Date.parse(input.expires_at);
  let redactions: { kind: string; count: number }[] = [];
  let ftsTokens: string | undefined;
  if (input.content !== undefined && input.content !== existing.content) {
    const screened = screenContent(input.content, input.confidence ?? existing.confidence, 0);
    if (screened.verdict === "rejected")
      throw new MemoryError("invalid_input", `content: ${screened.reason}`, "content");
    redactions = screened.redactions;
    // New text: re-embed it and let consolidation compare it with its neighbours again.
    Object.assign(changes, {
      content: screened.text,
      contentHash: await contentHash(screened.text),
      indexedAt: null,
      embeddingModel: null,
      consolidatedAt: null,
      // Its entities are extracted again below; null until then, so the Cron job redoes it if that fails.
      entitiesAt: null,
    });
    changes.summary =
      screened.text.length > deps.settings.longContentChars ? await screenedSummary(deps, screened.text) : null;
    if (screened.verdict === "quarantine") changes.status = "quarantined";
    // New words naming a new day ("tomorrow" → "on the 20th") move the event to it, read from now (event-date.ts).
    const moved = editedEventTime(existing.content, screened.text, input.event_time, {
      at: now,
      timeZone: zoneFor(input.time_zone, deps.settings.timeZone),
    });
    if (moved !== undefined) changes.eventTime = moved;
    ftsTokens = screened.verdict === "quarantine" ? "" : indexTokens(screened.text).join(" ");
  }
  if (labelInjection.suspicious) {
    changes.status = "quarantined";
    ftsTokens = "";
  }
  const keys = Object.keys(changes) as (keyof Memory)[];
  const patch: MemoryPatch = {
    id: existing.id,
    changes,
    ftsTokens,
    event: { op: "update", before: pick(existing, keys), after: changes, actor: scope.actor, at: now },
  };
  await deps.repo.write(scope, [], [patch]);
  const updated = { ...existing, ...changes };
  if (ftsTokens !== undefined) {
    if (updated.status === "active") await embedAndIndex(deps, scope, [updated]);
    else await unindex(deps, scope, [updated.id]);
  }
  if (changes.content !== undefined) await syncEntities(deps, scope, [updated]);
  return { memory: updated, redactions };
}

/** Deleted, or quarantined and deleted (it keeps its quarantine). */
const isDeleted = (m: Memory) => m.status === "deleted" || (m.status === "quarantined" && m.deletedAt !== null);

export async function deleteMemories(
  deps: MemoryDeps,
  scope: Scope,
  ids: string[],
): Promise<{ deleted: string[]; quarantined: string[]; alreadyDeleted: string[]; notFound: string[] }> {
  const unique = [...new Set(ids)];
  const found = new Map(
    (await deps.repo.getMany(scope, unique))
      .filter((m) => m.agentId === null || scope.agentId === undefined || m.agentId === scope.agentId)
      .map((m) => [m.id, m]),
  );
  const now = deps.clock.now();
  const live = unique.map((id) => found.get(id)).filter((m): m is Memory => m !== undefined && !isDeleted(m));
  const patches: MemoryPatch[] = live.map((m) => {
    // A quarantined memory stays quarantined when deleted: restore refuses it, only a person releases it.
    const status = m.status === "quarantined" ? "quarantined" : "deleted";
    return {
      id: m.id,
      changes: { status, deletedAt: now, updatedAt: now, indexedAt: null },
      event: {
        op: "delete",
        before: { status: m.status },
        after: { status, deletedAt: now },
        actor: scope.actor,
        at: now,
      },
    };
  });
  await deps.repo.write(scope, [], patches);
  await unindex(
    deps,
    scope,
    live.map((m) => m.id),
  );
  return {
    deleted: live.map((m) => m.id),
    // Deleted but still quarantined: the answer must not offer restore_memory for these.
    quarantined: live.filter((m) => m.status === "quarantined").map((m) => m.id),
    alreadyDeleted: unique.filter((id) => {
      const m = found.get(id);
      return m !== undefined && isDeleted(m);
    }),
    notFound: unique.filter((id) => !found.has(id)),
  };
}

/**
 * Brings back a deleted, superseded or expired memory. A quarantined one is refused: its text looked
 * like prompt injection, and an injected agent could call restore_memory on it; only a person
 * releases it (releaseMemory, from the dashboard).
 */
export async function restoreMemory(deps: MemoryDeps, scope: Scope, id: string): Promise<Memory> {
  const existing = await mustGet(deps, scope, id);
  if (existing.status === "active") throw new MemoryError("conflict", `Memory ${id} is already active`);
  if (existing.status === "quarantined")
    throw new MemoryError(
      "forbidden",
      `Memory ${id} is quarantined (it looked like prompt injection); only a person can release it, in the dashboard under Quarantine`,
    );
  return reactivate(deps, scope, existing, "restore");
}

/** A person lets a quarantined memory out (dashboard only): it becomes active, searchable and indexed. */
export async function releaseMemory(deps: MemoryDeps, scope: Scope, id: string): Promise<Memory> {
  const existing = await mustGet(deps, scope, id);
  if (existing.status !== "quarantined") throw new MemoryError("conflict", `Memory ${id} is not quarantined`);
  return reactivate(deps, scope, existing, "release");
}

async function reactivate(
  deps: MemoryDeps,
  scope: Scope,
  existing: Memory,
  op: "restore" | "release",
): Promise<Memory> {
  const id = existing.id;
  const now = deps.clock.now();
  const changes: Partial<Memory> = {
    status: "active",
    deletedAt: null,
    supersededBy: null,
    updatedAt: now,
    consolidatedAt: null,
    // Its vector left the index with it: until re-embedded below (or by repair) it is unindexed.
    indexedAt: null,
  };
  if (existing.expiresAt !== null && existing.expiresAt <= now) changes.expiresAt = null;
  // Always written: whatever removed the row's FTS entry before, a restored memory is searchable again.
  const ftsTokens = indexTokens(existing.content).join(" ");
  await deps.repo.write(
    scope,
    [],
    [
      {
        id,
        changes,
        ftsTokens,
        event: {
          op,
          before: { status: existing.status, supersededBy: existing.supersededBy },
          after: changes,
          actor: scope.actor,
          at: now,
        },
      },
    ],
  );
  const restored = { ...existing, ...changes };
  await embedAndIndex(deps, scope, [restored]);
  // Its mentions stayed while it was away (reads skip inactive memories); one never extracted is now.
  if (restored.entitiesAt === null) await syncEntities(deps, scope, [restored]);
  return restored;
}
