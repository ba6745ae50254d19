/**
 * @module scripts/lib/import-client
 * Client side of POST /v1/import for `npm run import` and the recall benchmark: splits JSON Lines
 * into requests the server accepts (line and byte limits), preferring to cut between
 * conversations so neighbouring turns stay in one request, and posts them. Node built-ins only.
 */

/**
 * Lines per request: the server takes up to 5,000 (src/memory/limits.ts: importLinesMax), but a
 * request is the unit that lands all or nothing, and 1,000 lines (ten D1 batches of 100 rows) keep
 * each one short, so a failure costs at most one request and the import resumes after it.
 */
export const MAX_LINES_PER_REQUEST = 1000;
/** The server's body limit (bodyMaxBytes), with headroom. */
export const MAX_BYTES_PER_REQUEST = 900_000;

export interface SourceLine {
  /** 1-based line number in the file. */
  fileLine: number;
  /** The line as sent (one JSON object). */
  text: string;
  /** Its source, when the line has one: a request is cut between sources when it can be. */
  source: string | null;
}

export interface ImportItem {
  line: number;
  id: string;
  external_id: string | null;
  status: "imported" | "skipped";
  reason?: string;
  redactions?: { kind: string; count: number }[];
  warnings?: string[];
}

export interface ImportResponse {
  format?: string;
  imported: number;
  skipped: number;
  redacted: number;
  warned: number;
  indexed: number;
  items: ImportItem[];
  /** The D1 batches the server wrote this request in (count, longest wall time in ms). */
  batches?: { count: number; longest_ms: number };
  /** Entities, relations and memory links stored with a graph format; `pending`: not stored, run again. */
  entities?: { entities: number; relations: number; mentions: number; pending: number };
}

export interface LineProblem {
  line: number;
  field: string | null;
  message: string;
  text: string;
}

export type PostResult =
  | { ok: true; body: ImportResponse }
  | { ok: false; status: number; message: string; lines: LineProblem[]; format?: string; field?: string };

/** The limit a server under PLATFORM_LIMITS=free names when a request has more lines than its CPU time carries. */
export const CPU_LIMIT_FIELD = "cpu_ms_per_invocation";

/**
 * The lines per request to try after `r` (a dry run of the first request): half as many when the server
 * refused it for its CPU time per invocation (413, nothing written), null when `r` settles it.
 */
export function fewerLinesAfter(r: PostResult, lines: number): number | null {
  if (r.ok || r.status !== 413 || r.field !== CPU_LIMIT_FIELD || lines <= 1) return null;
  return Math.max(1, Math.floor(lines / 2));
}

const encoder = new TextEncoder();
const utf8Bytes = (text: string) => encoder.encode(text).byteLength;

/** Cuts lines into requests within the limits; a cut goes at the last change of source in the back half. */
export function chunkLines(
  lines: SourceLine[],
  maxLines = MAX_LINES_PER_REQUEST,
  maxBytes = MAX_BYTES_PER_REQUEST,
): SourceLine[][] {
  const chunks: SourceLine[][] = [];
  let current: SourceLine[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = utf8Bytes(line.text) + 1;
    if (size > maxBytes)
      throw new Error(`line ${line.fileLine} is ${size} bytes, more than one request may carry (${maxBytes})`);
    if (current.length > 0 && (current.length >= maxLines || bytes + size > maxBytes)) {
      const cut = sourceBoundary(current);
      chunks.push(current.slice(0, cut));
      current = current.slice(cut);
      bytes = current.reduce((sum, l) => sum + utf8Bytes(l.text) + 1, 0);
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function sourceBoundary(chunk: SourceLine[]): number {
  for (let i = chunk.length - 1; i >= Math.ceil(chunk.length / 2); i--) {
    if (chunk[i].source !== chunk[i - 1].source) return i;
  }
  return chunk.length;
}

/** POSTs one request (its lines joined, or `body` when given); `dryRun` validates without writing. */
export async function postImport(
  base: string,
  key: string,
  chunk: SourceLine[],
  query: { user?: string; agent?: string; dryRun?: boolean; format?: string; body?: string },
): Promise<PostResult> {
  const params = new URLSearchParams();
  if (query.user) params.set("user_id", query.user);
  if (query.agent) params.set("agent_id", query.agent);
  if (query.format) params.set("format", query.format);
  if (query.dryRun) params.set("dry_run", "true");
  const url = `${base.replace(/\/+$/, "")}/v1/import`;
  const res = await fetch(`${url}${params.size > 0 ? `?${params}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
    body: query.body ?? chunk.map((l) => l.text).join("\n"),
  }).catch((err: Error) => {
    throw new Error(
      `cannot reach ${url}: ${(err.cause as Error | undefined)?.message ?? err.message} (is the server running? npm run dev)`,
    );
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok) return { ok: true, body: body as unknown as ImportResponse };
  const lines = (Array.isArray(body.lines) ? body.lines : []) as LineProblem[];
  const format = typeof body.format === "string" ? body.format : undefined;
  const field = typeof body.field === "string" ? body.field : undefined;
  return { ok: false, status: res.status, message: String(body.message ?? `HTTP ${res.status}`), lines, format, field };
}
