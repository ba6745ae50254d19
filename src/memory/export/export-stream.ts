/**
 * @module memory/export/export-stream
 * One owner's memories as a stream of export lines (memory/export/export-format.ts), read page by
 * page with a (created_at, id) keyset cursor. The stream is pull-based: the next page is read only
 * when the consumer has taken the previous one, so an export of any size holds one page (and its
 * history) in memory at a time.
 */
import type { ExportReader, Keyset } from "../ports";
import type { Owner } from "../types";
import { type ExportFilter, exportHeader, exportRecord } from "./export-format";

/** Rows per D1 read: large enough to keep round trips few, small enough to keep memory flat. */
export const EXPORT_PAGE_SIZE = 200;

const encoder = new TextEncoder();
const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);

export function exportStream(
  reader: ExportReader,
  owner: Owner,
  filter: ExportFilter,
  now: number,
  pageSize = EXPORT_PAGE_SIZE,
): ReadableStream<Uint8Array> {
  let after: Keyset | null = null;
  let memories = 0;
  let events = 0;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(line(exportHeader(filter, now)));
          return;
        }
        const page = await reader.exportPage(owner, filter, after, pageSize);
        const history = await reader.eventsOf(
          owner,
          page.map((m) => m.id),
        );
        const parts: string[] = [];
        for (const m of page) {
          const own = history.get(m.id) ?? [];
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
