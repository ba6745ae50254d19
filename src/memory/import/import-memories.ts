/**
 * @module memory/import/import-memories
 * Bulk import: validated lines → memories stored exactly as given. Unlike save_memory there is no
 * value filter, no duplicate merge and no superseding — a migration must land what the source
 * system held. Two safety rules still apply, as on a save: secrets are redacted everywhere they are
 * kept (content, labels, history; nothing stores a credential in clear), and a line whose text,
 * labels or history look like prompt injection lands quarantined, whatever status it claims (a
 * deleted one keeps its deleted_at), for a person to review in the dashboard. Rows land in bounded D1 batches, all or nothing per request (import-batches.ts); vectors
 * are embedded and indexed in bulk before the write, so each row is written once with its indexed_at.
 */
import { syncEntitiesInSlices } from "../entities/sync-entities";
import { awaitsIndex, embedOrNull, unindex, upsertVectors } from "../indexing";
import { buildMemory, contentHash, resolveExpiry } from "../memory-factory";
import type { MemoryWrite } from "../ports";
import type { MemoryDeps } from "../service-deps";
import { indexTokens } from "../text/tokenize";
import type { Memory, MemoryEvent, Scope } from "../types";
import { eventTimeOf, zoneFor } from "../write/event-date";
import { detectInjection, type InjectionVerdict } from "../write/injection-detector";
import { redactEvent } from "../write/redact-event";
import { type Redaction, redactSecrets } from "../write/redact-secrets";
import { screenLabels } from "../write/screen-content";
import { conversationContext } from "./conversation-context";
import { writeInBatches } from "./import-batches";
import type { ImportedGraph } from "./import-graph";
import { type NumberedLine, screenIds } from "./import-line";
import { linkResolver, type Resolve, resolvePendingLinks } from "./import-links";

export interface ImportedItem {
  /** Line number in the request body. */
  line: number;
  /** The memory's id: new, or the existing one when skipped. */
  id: string;
  external_id: string | null;
  status: "imported" | "skipped";
  /** Why a line was skipped. */
  reason?: string;
  /** Secrets replaced by [REDACTED:<kind>] before storing. */
  redactions?: Redaction[];
  /** Worth a look: e.g. stored quarantined as possible prompt injection. */
  warnings?: string[];
  /** Why the line landed quarantined (out of search until a person releases it). */
  quarantined?: string;
}

export interface ImportResult {
  imported: number;
  skipped: number;
  redacted: number;
  warned: number;
  /** Lines stored quarantined (possible prompt injection in their text or labels). */
  quarantined: number;
  /** Imported memories whose vectors reached the index (the rest are found lexically until repair). */
  indexed: number;
  /** Imported active memories without a vector yet (embedding model or index unavailable): repair indexes them. */
  indexed_later: number;
  items: ImportedItem[];
  /** The D1 batches the rows went in: how many, and the longest one's wall time (ms). */
  batches: { count: number; longest_ms: number };
  /** Entities, relations and memory links stored with the memories (graph formats only). */
  entities?: ImportedGraph;
}

/** External ids this user already has (any status: a re-import never resurrects a deleted memory). */
async function existingIds(
  deps: MemoryDeps,
  scope: Scope,
  lines: NumberedLine[],
  withLinks: boolean,
): Promise<Map<string, string>> {
  const ext = lines.map((l) => l.input.external_id).filter((id): id is string => id !== undefined);
  // Links may name memories imported by an earlier request: look those up too.
  if (withLinks)
    for (const l of lines)
      ext.push(...(l.input.superseded_by ? [l.input.superseded_by] : []), ...(l.input.derived_from ?? []));
  if (ext.length === 0) return new Map();
  const found = await deps.repo.findByExternalIds(scope, ext);
  return new Map(found.map((m) => [m.externalId!, m.id]));
}

/** The fields an import line gives a row, including an export's status, scope, links and times. */
function buildRow(
  deps: MemoryDeps,
  scope: Scope,
  l: NumberedLine,
  text: string,
  hash: string,
  now: number,
  resolve: Resolve,
): Memory {
  const input = l.input;
  const createdAt = input.created_at ? Date.parse(input.created_at) : now;
  const agentId =
    input.agent_id !== undefined && input.agent_id !== null
      ? input.agent_id
      : input.shared
        ? null
        : (scope.agentId ?? null);
  const memory = buildMemory(scope, deps.newId(), hash, createdAt, {
    content: text,
    category: input.category,
    tags: input.tags,
    priority: input.priority,
    confidence: input.confidence,
    memoryType: input.memory_type,
    source: input.source ?? null,
    externalId: input.external_id ?? null,
    // Relative words are read from the line's own date (created_at), else now (write/event-date.ts).
    eventTime: eventTimeOf(text, input.event_time, {
      at: createdAt,
      timeZone: zoneFor(undefined, deps.settings.timeZone),
    }),
    expiresAt: resolveExpiry(createdAt, input.expires_at),
    agentId,
    status: input.status,
    derivedFrom: (input.derived_from ?? []).map(resolve),
  });
  if (input.importance !== undefined) memory.importance = input.importance;
  if (input.updated_at) memory.updatedAt = Date.parse(input.updated_at);
  if (input.deleted_at) memory.deletedAt = Date.parse(input.deleted_at);
  if (input.superseded_by) memory.supersededBy = resolve(input.superseded_by);
  return memory;
}

/**
 * An export's events, re-addressed to the new row. Everything kept is redacted like the content:
 * every text field of each snapshot (content, tags, source, category, reasons, …) and the actor.
 */
function importedHistory(l: NumberedLine, memoryId: string): MemoryEvent[] | undefined {
  const owned = (snap: Record<string, unknown> | null): Partial<Memory> | null => {
    if (!snap) return null;
    const { accountId: _a, namespace: _n, userId: _u, ...rest } = snap;
    return rest as Partial<Memory>;
  };
  return l.input.history?.map((e) =>
    redactEvent({
      memoryId,
      op: e.op,
      before: owned(e.before),
      after: owned(e.after),
      actor: e.actor,
      at: Date.parse(e.at),
    }),
  );
}

/** Every text an imported history carries: each event's actor and each text of its snapshots. */
function historyTexts(l: NumberedLine): string[] {
  const texts: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) for (const v of value) if (typeof v === "string") texts.push(v);
  };
  for (const e of l.input.history ?? []) {
    texts.push(e.actor);
    for (const snap of [e.before, e.after]) if (snap) for (const value of Object.values(snap)) add(value);
  }
  return texts;
}

/**
 * The line screened like a save: injection in its text or labels (category, tags, source), or in
 * its history (memory_history and the dashboard's timeline show every event's texts to whoever reads
 * them), whose texts are screened as labels are.
 */
function injectionIn(l: NumberedLine, text: string): InjectionVerdict {
  const found = detectInjection(text);
  if (found.suspicious) return found;
  const labels = screenLabels([l.input.category, ...(l.input.tags ?? []), l.input.source]);
  return labels.suspicious ? labels : screenLabels(historyTexts(l));
}

function itemFor(l: NumberedLine, memory: Memory, redactions: Redaction[], injection: InjectionVerdict): ImportedItem {
  return {
    line: l.line,
    id: memory.id,
    external_id: memory.externalId,
    status: "imported",
    ...(redactions.length > 0 ? { redactions } : {}),
    ...(injection.suspicious
      ? {
          quarantined: injection.reason,
          warnings: [
            `possible prompt injection (${injection.reason}); stored quarantined, out of search until a person releases it in the dashboard`,
          ],
        }
      : {}),
  };
}

/**
 * Embeds and indexes the active rows before they are written, so each row lands once with its
 * indexed_at (as save does) instead of being updated again afterwards. If the embedder fails or the
 * index refuses them, the rows are written unindexed and found lexically until the repair job
 * indexes them: the import itself never fails for it.
 */
async function indexFirst(deps: MemoryDeps, scope: Scope, active: MemoryWrite[]): Promise<number> {
  if (active.length === 0) return 0;
  const vectors = await embedOrNull(
    deps,
    active.map((w) => w.memory.content),
    "the imported memories are indexed later",
  );
  if (!vectors) return 0;
  const indexedAt = deps.clock.now();
  const ok = await upsertVectors(
    deps,
    scope,
    active.map((w, i) => ({ id: w.memory.id, vector: vectors[i] })),
    indexedAt,
  );
  if (!ok) return 0;
  // New objects: the create event keeps the memory as it was created.
  for (const w of active) w.memory = { ...w.memory, embeddingModel: deps.embedder.model, indexedAt };
  return active.length;
}

const isRestore = (lines: NumberedLine[]) =>
  lines.some((l) => l.input.history !== undefined || l.input.superseded_by || l.input.derived_from);

export async function importMemories(deps: MemoryDeps, scope: Scope, given: NumberedLine[]): Promise<ImportResult> {
  const lines = given.map((l) => ({ line: l.line, input: screenIds(l.input) }));
  const now = deps.clock.now();
  const restore = isRestore(lines);
  const existing = await existingIds(deps, scope, lines, restore);
  // Redact first: neighbour context is built from the redacted text, so no secret reaches the index.
  const redacted = lines.map((l) => redactSecrets(l.input.content));
  const contexts = conversationContext(
    lines.map((l, i) => ({ content: redacted[i].text, source: l.input.source ?? null })),
  );
  const items: ImportedItem[] = [];
  const writes: MemoryWrite[] = [];
  // Ids first (links may point forward in the file), then rows.
  const fresh = lines.map((l) =>
    l.input.external_id !== undefined && existing.has(l.input.external_id) ? null : deps.newId(),
  );
  const planned = new Map(existing);
  lines.forEach((l, i) => {
    if (fresh[i] && l.input.external_id) planned.set(l.input.external_id, fresh[i]!);
  });
  const resolve = linkResolver(planned);
  // Hashed together: one await for the request instead of one per line.
  const hashes = await Promise.all(redacted.map((r, i) => (fresh[i] ? contentHash(r.text) : "")));
  for (const [i, l] of lines.entries()) {
    const ext = l.input.external_id;
    if (!fresh[i]) {
      items.push({
        line: l.line,
        id: existing.get(ext!)!,
        external_id: ext!,
        status: "skipped",
        reason: "external_id already imported",
      });
      continue;
    }
    const memory = { ...buildRow(deps, scope, l, redacted[i].text, hashes[i], now, resolve), id: fresh[i]! };
    const injection = injectionIn(l, redacted[i].text);
    if (injection.suspicious) memory.status = "quarantined";
    const event = {
      memoryId: memory.id,
      op: "create" as const,
      before: null,
      after: memory,
      actor: scope.actor,
      at: now,
    };
    // A quarantined memory stays out of search until a person releases it.
    const ftsTokens = memory.status === "quarantined" ? "" : indexTokens(memory.content).join(" ");
    writes.push({ memory, ftsTokens, contextTokens: contexts[i], event, history: importedHistory(l, memory.id) });
    items.push(itemFor(l, memory, redacted[i].redactions, injection));
  }
  const active = writes.filter((w) => w.memory.status === "active");
  const indexed = await indexFirst(deps, scope, active);
  const lineOf = new Map(items.map((it) => [it.id, it.line]));
  const indexedIds = new Set(indexed > 0 ? active.map((w) => w.memory.id) : []);
  const batches = await writeInBatches(deps, scope, writes, {
    lineOf: (w) => lineOf.get(w.memory.id) ?? 0,
    rowsPerBatch: deps.settings.importBatchRows,
    // Rows not in D1 lose their vectors too (recall would skip them anyway, D1 being the truth).
    onUnstored: (ids) =>
      unindex(
        deps,
        scope,
        ids.filter((id) => indexedIds.has(id)),
      ),
  });
  if (restore) await resolvePendingLinks(deps.repo, scope);
  await syncEntitiesInSlices(
    deps,
    scope,
    active.map((w) => w.memory),
  );
  return {
    imported: writes.length,
    skipped: items.length - writes.length,
    indexed,
    indexed_later: writes.filter((w) => awaitsIndex(w.memory)).length,
    redacted: items.filter((it) => it.redactions).length,
    warned: items.filter((it) => it.warnings).length,
    quarantined: items.filter((it) => it.quarantined).length,
    items,
    batches: { count: batches.count, longest_ms: batches.longestMs },
  };
}
