/**
 * @module scripts/import
 * `npm run import -- <file> --user <id> [--key <key>] [--url <base>] [--agent <id>] [--format <f>] [--map <out.jsonl>] [--from-line <n>] [--lines-per-request <n>]`
 * Bulk-imports a file into a running server through POST /v1/import, with a progress bar on
 * stderr. Formats (detected by the server, or --format): jsonl (one memory per line: content, and
 * optionally category, tags, priority, confidence, memory_type, event_time, expires_at, source,
 * external_id, created_at, shared), hippocampus (a file from `npm run export`), mcp-memory (the
 * official MCP memory server's memory.jsonl), mem0 (a mem0 get_all / OpenMemory JSON export) and
 * text (plain text or Markdown, one memory per line or bullet).
 * The whole file is validated first (locally for JSON, then by the server with ?dry_run=true), so a
 * bad line anywhere means nothing is written. The file then goes in requests of at most 1,000 lines
 * (--lines-per-request fewer; without it, a server that refuses the first request for its CPU time
 * per invocation — PLATFORM_LIMITS=free carries 34 lines, docs/architecture.md "CPU time" — is asked
 * again with half as many lines, by dry runs, until one fits),
 * each landing all or nothing (the server writes it in bounded D1 batches); when one fails, the
 * import stops and prints the `--from-line` that resumes exactly after the last request that landed.
 * Lines with an external_id the user already has are skipped, so re-running the whole file is safe too.
 * The key comes from --key or HIPPOCAMPUS_KEY, the server from --url or HIPPOCAMPUS_URL, else the running
 * `npm run dev` (its URL in .wrangler/dev-url, scripts/lib/dev-url.ts), else http://127.0.0.1:8787.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { authHint, serverUrl } from "./lib/dev-url.ts";
import {
  fewerLinesAfter,
  type ImportItem,
  type LineProblem,
  MAX_LINES_PER_REQUEST,
  postImport,
  type SourceLine,
} from "./lib/import-client.ts";
import { bodyOf, FORMATS, type Format, type PreparedFile, prepareFile, withHeader } from "./lib/import-file.ts";

class CliError extends Error {}

const USAGE =
  "usage: npm run import -- <file> --user <id> [--key <key>] [--url http://127.0.0.1:8787] [--agent <id>] [--format hippocampus|jsonl|mcp-memory|mem0|text] [--map <out.jsonl>] [--from-line <n>] [--lines-per-request <n>]";

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      user: { type: "string" },
      key: { type: "string" },
      url: { type: "string" },
      agent: { type: "string" },
      map: { type: "string" },
      "from-line": { type: "string" },
      "lines-per-request": { type: "string" },
      format: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const key = values.key ?? process.env.HIPPOCAMPUS_KEY;
  if (positionals.length !== 1) throw new CliError(`give exactly one file\n${USAGE}`);
  if (!key) throw new CliError(`no API key: pass --key or set HIPPOCAMPUS_KEY\n${USAGE}`);
  const fromLine = Number(values["from-line"] ?? 1);
  if (!Number.isInteger(fromLine) || fromLine < 1) throw new CliError(`--from-line takes a line number (1 or more)`);
  const linesPerRequest = Number(values["lines-per-request"] ?? MAX_LINES_PER_REQUEST);
  if (!Number.isInteger(linesPerRequest) || linesPerRequest < 1 || linesPerRequest > MAX_LINES_PER_REQUEST)
    throw new CliError(`--lines-per-request takes 1 to ${MAX_LINES_PER_REQUEST}`);
  if (values.format !== undefined && !(FORMATS as readonly string[]).includes(values.format))
    throw new CliError(`--format must be one of ${FORMATS.join(", ")}\n${USAGE}`);
  return {
    // npm runs scripts in the package root; INIT_CWD is where the person typed the command.
    file: resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]),
    user: values.user,
    agent: values.agent,
    map: values.map,
    fromLine,
    linesPerRequest,
    linesGiven: values["lines-per-request"] !== undefined,
    format: values.format as Format | undefined,
    key,
    url: serverUrl(values.url ?? process.env.HIPPOCAMPUS_URL).url,
  };
}

function readFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** Server-side line problems, renumbered to lines of the file. */
function fileProblems(chunk: SourceLine[], lines: LineProblem[]): string[] {
  return lines.map((p) => {
    const fileLine = p.line > 0 ? (chunk[p.line - 1]?.fileLine ?? p.line) : 0;
    return `${fileLine > 0 ? `line ${fileLine}: ` : ""}${p.field ? `${p.field}: ` : ""}${p.message}`;
  });
}

function progress(done: number, total: number, imported: number, skipped: number, started: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const text = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${Math.round((done / total) * 100)}% ${done}/${total} lines · ${imported} imported · ${skipped} skipped · ${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (process.stderr.isTTY) process.stderr.write(`\r${text}${done === total ? "\n" : ""}`);
  else process.stderr.write(`${text}\n`);
}

type Options = ReturnType<typeof options>;

/** What every request of this file sends: who it is for, the format, the body of a chunk. */
function requestFor(o: Options, f: PreparedFile, format: string | undefined, chunk: SourceLine[]) {
  return { user: o.user, agent: o.agent, format, body: bodyOf(chunk, f.document) };
}

/**
 * The file cut into requests the server takes: --lines-per-request as given, or else the most lines per
 * request (1,000 at most) whose first request the server does not refuse for its CPU time.
 */
async function fitted(o: Options, text: string): Promise<PreparedFile> {
  let lines = o.linesPerRequest;
  for (;;) {
    const f = prepareFile(text, o.format, o.fromLine, lines);
    if (o.linesGiven || f.total === 0) return f;
    const r = await postImport(o.url, o.key, f.chunks[0], { ...requestFor(o, f, o.format, f.chunks[0]), dryRun: true });
    const fewer = fewerLinesAfter(r, lines);
    if (fewer === null) return f;
    process.stderr.write(
      `import: the server's CPU time per request takes fewer than ${lines} lines; trying ${fewer}\n`,
    );
    lines = fewer;
  }
}

/** The file's format: --format, or what the server detects in the first request. */
async function detect(o: Options, f: PreparedFile): Promise<string | undefined> {
  if (o.format) return o.format;
  const r = await postImport(o.url, o.key, f.chunks[0], { ...requestFor(o, f, undefined, f.chunks[0]), dryRun: true });
  return r.ok ? r.body.format : r.format;
}

async function validate(o: Options, f: PreparedFile, format: string | undefined): Promise<void> {
  const problems: string[] = [];
  for (const chunk of f.chunks) {
    const r = await postImport(o.url, o.key, chunk, { ...requestFor(o, f, format, chunk), dryRun: true });
    if (r.ok) continue;
    // A request-level refusal (key, user, size) would repeat for every request: say it once.
    if (r.lines.length === 0 || r.lines.every((l) => l.line === 0))
      throw new CliError(
        `${o.url} refused the import (${r.status}); nothing was imported: ${r.message}${authHint(r.status)}`,
      );
    problems.push(...fileProblems(chunk, r.lines));
  }
  if (problems.length > 0)
    throw new CliError(
      `the server rejected ${problems.length} problem(s); nothing was imported:\n  ${problems.slice(0, 100).join("\n  ")}`,
    );
}

interface Totals {
  imported: number;
  skipped: number;
  warned: number;
  redacted: number;
  /** Entities and relations stored with a graph format (mcp-memory, a version 2 export); pending: run again. */
  graph: { entities: number; relations: number; pending: number } | null;
  items: (ImportItem & { file_line: number })[];
}

/** Sends the chunks in order; a failed request stops the import and says what already landed. */
async function send(o: Options, f: PreparedFile, format: string | undefined, started: number): Promise<Totals> {
  const { chunks, total } = f;
  const t: Totals = { imported: 0, skipped: 0, warned: 0, redacted: 0, graph: null, items: [] };
  let done = 0;
  progress(0, total, 0, 0, started);
  for (const chunk of chunks) {
    const r = await postImport(o.url, o.key, chunk, requestFor(o, f, format, chunk));
    if (!r.ok) {
      const written =
        done > 0 ? `lines before ${chunk[0].fileLine} of the file were imported; ` : "nothing was imported; ";
      throw new CliError(
        `import stopped at line ${chunk[0].fileLine}: ${o.url} answered ${r.status}: ${r.message}${authHint(r.status)}\n${written}resume with --from-line ${chunk[0].fileLine} (re-running the whole file also skips lines whose external_id was imported)`,
      );
    }
    for (const item of r.body.items) t.items.push({ ...item, file_line: chunk[item.line - 1].fileLine });
    // A header repeated at the start of a later request is not a line of the file's progress.
    const repeated = format === "hippocampus" && chunk[0] === f.first && !(chunk === chunks[0] && o.fromLine === 1);
    done += chunk.length - (repeated ? 1 : 0);
    t.imported += r.body.imported;
    t.skipped += r.body.skipped;
    t.warned += r.body.warned;
    t.redacted += r.body.redacted;
    const g = r.body.entities;
    if (g) {
      t.graph ??= { entities: 0, relations: 0, pending: 0 };
      t.graph.entities += g.entities;
      t.graph.relations += g.relations;
      t.graph.pending += g.pending;
    }
    progress(done, total, t.imported, t.skipped, started);
  }
  return t;
}

async function main(): Promise<void> {
  const o = options();
  const prepared = await fitted(o, readFile(o.file));
  if (prepared.total === 0) throw new CliError(`${o.file} has nothing to import at or after line ${o.fromLine}`);
  const format = await detect(o, prepared);
  // A Hippocampus export is read by its header: every request starts with it.
  const f = format === "hippocampus" ? { ...prepared, chunks: withHeader(prepared.chunks, prepared.first) } : prepared;
  await validate(o, f, format);
  const started = Date.now();
  const t = await send(o, f, format, started);
  if (o.map)
    writeFileSync(
      o.map,
      `${t.items
        .map((i) => JSON.stringify({ line: i.file_line, id: i.id, external_id: i.external_id, status: i.status }))
        .join("\n")}\n`,
    );
  console.log(
    `Imported ${t.imported} memories (format ${format ?? "detected"}), skipped ${t.skipped} already imported, redacted secrets in ${t.redacted}, flagged ${t.warned} for review (${((Date.now() - started) / 1000).toFixed(1)} s).`,
  );
  if (t.graph)
    console.log(
      `Stored ${t.graph.entities} entities and ${t.graph.relations} relations${t.graph.pending > 0 ? `; ${t.graph.pending} not stored yet: run the same import again` : ""}.`,
    );
  for (const i of t.items.filter((it) => it.warnings)) console.log(`  line ${i.file_line}: ${i.warnings!.join("; ")}`);
  if (o.map) console.log(`Line → memory id map written to ${o.map}.`);
}

main().catch((err) => {
  console.error(`import: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
