/**
 * @module memory/export/export-stream
 * One owner's memory as a stream of export lines (memory/export/export-format.ts): the memories
 * page by page with a (created_at, id) keyset cursor, each with what it names and states; then the
 * owner's entities page by page (id order), then the relations given on their own (row order). The
 * stream is pull-based: the next page is read only when the consumer has taken the previous one, so
 * an export of any size holds one page (and its history) in memory at a time. An export larger than
 * one invocation may read goes out in parts: when `part.more()` says the next page no longer fits,
 * the part ends with a `next` line carrying the cursor the following request continues from
 * (export-cursor.ts); only the first part has the header and only the last the `end` line, so the
 * parts joined are one export.
 */
import type { ExportReader, Keyset } from "../ports";
import type { Owner } from "../types";
import { redactEvent } from "../write/redact-event";
import { type ExportPhase, type ExportPosition, encodeExportCursor } from "./export-cursor";
import { type ExportFilter, exportEntity, exportHeader, exportRecord, exportRelation } from "./export-format";

/**
 * Rows per D1 read at most: a page is four statements (rows, their events, what they name and state);
 * a page of 1,000 is ~1 MB of rows, far inside 128 MB. A part takes fewer when the invocation's CPU time
 * cannot carry that many (composition.ts `exportInvocation`).
 */
export const EXPORT_PAGE_SIZE = 1_000;
/** Entities or relations per read at most (never more than a memory page): small rows, one statement each page. */
export const ENTITY_PAGE_SIZE = 500;

/** How one response of a multi-part export runs: whether another page fits, and where it resumes. */
export interface ExportPart {
  /** True while the next page (its rows and their history) fits in what this invocation may still read. */
  more(): boolean;
  /** The position the previous part's cursor named; absent for the first part. */
  resume?: ExportPosition;
  /** Memories matching when the export started (carried by the cursor). */
  total: number;
}

const encoder = new TextEncoder();
const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
const lines = (values: unknown[]) => encoder.encode(values.map((v) => `${JSON.stringify(v)}\n`).join(""));

/** Where the stream stands: the position a cursor carries, without the filter and totals. */
type State = Omit<ExportPosition, "filter" | "total" | "exportedAt">;

function startState(resume: ExportPosition | undefined): State {
  return {
    phase: resume?.phase ?? "memories",
    after: resume?.after ?? null,
    afterEntity: resume?.afterEntity ?? "",
    afterRelation: resume?.afterRelation ?? 0,
    memories: resume?.memories ?? 0,
    events: resume?.events ?? 0,
    entities: resume?.entities ?? 0,
    relations: resume?.relations ?? 0,
  };
}

/** One page of the current phase as bytes; moves the state on (to the next phase after a short page). */
type PageReader = (s: State) => Promise<{ bytes: Uint8Array | null; done: boolean }>;

function pageReaders(reader: ExportReader, owner: Owner, filter: ExportFilter, pageSize: number) {
  const entityPageSize = Math.min(ENTITY_PAGE_SIZE, pageSize);
  const memories: PageReader = async (s) => {
    const page = await reader.exportPage(owner, filter, s.after, pageSize);
    const ids = page.map((m) => m.id);
    const [history, stated] = await Promise.all([reader.eventsOf(owner, ids), reader.statedOf(owner, ids)]);
    const out = page.map((m) => {
      // Redacted again: an import may have stored history before it redacted all of it.
      const own = (history.get(m.id) ?? []).map(redactEvent);
      s.events += own.length;
      return exportRecord(m, own, stated.get(m.id));
    });
    s.memories += page.length;
    const last: Keyset | undefined = page.at(-1);
    if (last) s.after = { createdAt: last.createdAt, id: last.id };
    return { bytes: out.length > 0 ? lines(out) : null, done: page.length < pageSize };
  };
  const entities: PageReader = async (s) => {
    const page = await reader.entityPage(owner, s.afterEntity, entityPageSize);
    s.entities += page.length;
    if (page.length > 0) s.afterEntity = page[page.length - 1].id;
    return { bytes: page.length > 0 ? lines(page.map(exportEntity)) : null, done: page.length < entityPageSize };
  };
  const relations: PageReader = async (s) => {
    const page = await reader.givenRelationPage(owner, s.afterRelation, entityPageSize);
    s.relations += page.length;
    if (page.length > 0) s.afterRelation = page[page.length - 1].position;
    const out = page.map((r) => exportRelation(r.relation));
    return { bytes: out.length > 0 ? lines(out) : null, done: page.length < entityPageSize };
  };
  return { memories, entities, relations } satisfies Record<ExportPhase, PageReader>;
}

const NEXT_PHASE: Record<ExportPhase, ExportPhase | null> = {
  memories: "entities",
  entities: "relations",
  relations: null,
};

export function exportStream(
  reader: ExportReader,
  owner: Owner,
  filter: ExportFilter,
  now: number,
  pageSize = EXPORT_PAGE_SIZE,
  part: ExportPart = { more: () => true, total: 0 },
): ReadableStream<Uint8Array> {
  const resume = part.resume;
  const s = startState(resume);
  const exportedAt = resume?.exportedAt ?? now;
  const read = pageReaders(reader, owner, filter, pageSize);
  let started = resume !== undefined;
  let pagesRead = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(line(exportHeader(filter, now)));
          return;
        }
        // A pull must enqueue or close (a stream asked for data is not asked again): an empty page
        // between two parts of the export reads on.
        for (;;) {
          // Every part reads at least one page, so an export always moves on.
          if (pagesRead > 0 && !part.more()) {
            const cursor = encodeExportCursor({ filter, ...s, total: part.total, exportedAt });
            controller.enqueue(line({ type: "next", cursor, memories: s.memories }));
            controller.close();
            return;
          }
          pagesRead++;
          const { bytes, done } = await read[s.phase](s);
          if (bytes) controller.enqueue(bytes);
          const next = done ? NEXT_PHASE[s.phase] : s.phase;
          if (next === null) {
            const { memories, events, entities, relations } = s;
            controller.enqueue(line({ type: "end", memories, events, entities, relations }));
            controller.close();
            return;
          }
          s.phase = next;
          if (bytes) return;
        }
      },
    },
    { highWaterMark: 0 },
  );
}
