/**
 * @module http/export-route
 * GET /v1/export — one person's whole memory as JSON Lines (docs/export-format.md), streamed page
 * by page so any size exports in bounded memory. Reads need no writer: D1 (the owner's shard) is read
 * here, not through the Durable Object. Who: a user key, an OAuth token (memory:read is enough), or an app key with
 * `?user_id=`. Filters: `status` (default all), `category`, `since` (ISO 8601), `agent_id`
 * (memories private to that agent). An export larger than one invocation may read ends with a `next`
 * line; `?cursor=` continues it (docs/export-format.md, "Continuing"; the cursor carries the filters).
 */
import type { Context } from "hono";
import { z } from "zod";
import { resolveScope, scopeFields } from "../access/scope";
import { MEMORY_STATUSES } from "../memory/contracts";
import { invalidInput } from "../memory/errors";
import { decodeExportCursor, type ExportPosition } from "../memory/export/export-cursor";
import type { ExportFilter } from "../memory/export/export-format";
import { exportStream } from "../memory/export/export-stream";
import type { AppEnv } from "./app-env";
import { callerOf } from "./caller";

const exportQuery = z.object({
  ...scopeFields,
  status: z.enum([...MEMORY_STATUSES, "all"]).default("all"),
  category: z.string().trim().min(1).max(50).optional(),
  since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  cursor: z.string().min(1).max(2_000).optional().describe("The `next` line's cursor of the previous part"),
});

function parseQuery(c: Context<AppEnv>): z.infer<typeof exportQuery> {
  const q = c.req.query();
  const parsed = exportQuery.safeParse({
    user_id: q.user_id,
    agent_id: q.agent_id,
    status: q.status,
    category: q.category,
    since: q.since,
    cursor: q.cursor,
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalidInput(String(issue.path[0] ?? "query"), issue.message);
}

function filterOf(q: z.infer<typeof exportQuery>): ExportFilter {
  return {
    status: q.status,
    category: q.category,
    since: q.since === undefined ? undefined : Date.parse(q.since),
    agentId: q.agent_id,
  };
}

export async function exportRoute(c: Context<AppEnv>): Promise<Response> {
  const q = parseQuery(c);
  // agent_id filters the export; it does not narrow whose memory is read.
  const scope = resolveScope({ caller: { ...callerOf(c), agentHeader: null } }, { user_id: q.user_id });
  const resume: ExportPosition | undefined = q.cursor === undefined ? undefined : decodeExportCursor(q.cursor);
  const filter = resume?.filter ?? filterOf(q);
  const now = resume?.exportedAt ?? Date.now();
  const part = await c.var.services().exportPart(scope);
  const total = resume?.total ?? (await part.reader.count(scope, filter));
  const stream = exportStream(part.reader, scope, filter, now, part.pageSize, { more: part.more, resume, total });
  const name = `hippocampus-${new Date(now).toISOString().slice(0, 10)}.jsonl`;
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
      // For a progress bar: the memories matching when the export started (the same in every part).
      "x-memory-count": String(total),
    },
  });
}
