/**
 * @module memory/export/export-stream
 * One owner's memories as a stream of export lines (memory/export/export-format.ts), read page by
 * page with a (created_at, id) keyset cursor. The stream is pull-based: the next page is read only
 * when the consumer has taken the previous one, so an export of any size holds one page (and its
 * history) in memory at a time. An export larger than one invocation may read goes out in parts:
 * when `part.more()` says the next page no longer fits, the part ends with a `next` line carrying
 * the cursor the following request continues from (export-cursor.ts); only the first part has the
 * header and only the last the `end` line, so the parts joined are one export.
 */
import type { ExportReader, Keyset } from "../ports";
import type { Owner } from "../types";
import { redactEvent } from "../write/redact-event";
import { type ExportPosition, encodeExportCursor } from "./export-cursor";
import { type ExportFilter, exportHeader, exportRecord } from "./export-format";

/**
 * Rows per D1 read: a page is two statements (rows, then their events), so under Free's 50 queries an
 * export part carries ~22,000 memories; a page of 1,000 is ~1 MB of rows, far inside 128 MB.
 */
export const EXPORT_PAGE_SIZE = 1_000;

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

export function exportStream(
  reader: ExportReader,
  owner: Owner,
  filter: ExportFilter,
  now: number,
  pageSize = EXPORT_PAGE_SIZE,
  part: ExportPart = { more: () => true, total: 0 },
): ReadableStream<Uint8Array> {
  const resume = part.resume;
  let after: Keyset | null = resume?.after ?? null;
  let memories = resume?.memories ?? 0;
  let events = resume?.events ?? 0;
  const exportedAt = resume?.exportedAt ?? now;
  let started = resume !== undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(line(exportHeader(filter, now)));
          return;
        }
        if (after !== null && !part.more()) {
          const cursor = encodeExportCursor({ filter, after, memories, events, total: part.total, exportedAt });
          controller.enqueue(line({ type: "next", cursor, memories }));
          controller.close();
          return;
        }
        const page = await reader.exportPage(owner, filter, after, pageSize);
        const history = await reader.eventsOf(
          owner,
          page.map((m) => m.id),
        );
        const parts: string[] = [];
        for (const m of page) {
          // Redacted again: an import may have stored history before it redacted all of it.
          const own = (history.get(m.id) ?? []).map(redactEvent);
          events += own.length;
          parts.push(JSON.stringify(exportRecord(m, own)));
        }
        memories += page.length;
        if (parts.length > 0) controller.enqueue(encoder.encode(`${parts.join("\n")}\n`));
        if (page.length < pageSize) {
          controller.enqueue(line({ type: "end", memories, events }));
          controller.close();
          return;
        }
        const last = page[page.length - 1];
        after = { createdAt: last.createdAt, id: last.id };
      },
    },
    { highWaterMark: 0 },
  );
}
