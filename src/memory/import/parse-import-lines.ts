/**
 * @module memory/import/parse-import-lines
 * JSON Lines body → validated import lines, or every problem with its line number. A request is
 * validated whole before anything is written: one bad line rejects the request, so a caller fixes
 * the file and sends it again instead of guessing which half landed. Pure.
 */
import { LIMITS } from "../limits";
import { jsonlRecords } from "./formats/jsonl-format";
import { type ImportLine, importLine, type LineError, type NumberedLine, screenIds } from "./import-line";

export type ParsedImport =
  | { ok: true; lines: NumberedLine[] }
  | { ok: false; errors: LineError[]; invalidLines: number };

const FIELDS = Object.keys(importLine.shape).join(", ");

/** One line parsed once: its value, or its zod issues as line errors (unknown keys name themselves as the field). */
function parseLine(line: number, value: unknown): { input: ImportLine | null; problems: LineError[] } {
  const parsed = importLine.safeParse(value);
  // Ids are compared as they will be stored: two ids that differ only in a secret are one id.
  if (parsed.success) return { input: screenIds(parsed.data), problems: [] };
  const problems = parsed.error.issues.map((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : "";
    const field = issue.path.join(".") || keys || null;
    const message = issue.code === "unrecognized_keys" ? `is not an import field (fields: ${FIELDS})` : issue.message;
    return { line, field, message };
  });
  return { input: null, problems };
}

/**
 * Validates candidate lines (from any format, memory/import/formats) as import lines; duplicate
 * external ids within the body are errors too.
 */
export function validateRecords(records: { line: number; value: unknown }[], earlier: LineError[] = []): ParsedImport {
  const lines: NumberedLine[] = [];
  const errors: LineError[] = [];
  const badLines = new Set<number>(earlier.map((e) => e.line));
  const firstLineOf = new Map<string, number>();
  if (records.length > LIMITS.importLinesMax) {
    const line = records[LIMITS.importLinesMax].line;
    const message = `more than ${LIMITS.importLinesMax} lines in one request: split the file (npm run import does)`;
    return reject([{ line, field: null, message }], 1);
  }
  for (const { line, value } of records) {
    const { input, problems } = parseLine(line, value);
    const ext = input?.external_id;
    if (ext !== undefined && firstLineOf.has(ext))
      problems.push({ line, field: "external_id", message: `duplicates line ${firstLineOf.get(ext)}` });
    else if (ext !== undefined) firstLineOf.set(ext, line);
    if (problems.length > 0) {
      badLines.add(line);
      for (const p of problems) errors.push(p);
    } else lines.push({ line, input: input! });
  }
  if (badLines.size > 0)
    return reject(
      [...earlier, ...errors].sort((a, b) => a.line - b.line),
      badLines.size,
    );
  if (lines.length === 0)
    return reject([{ line: 0, field: null, message: "the body has no lines: send one JSON object per line" }], 0);
  return { ok: true, lines };
}

/** A JSON Lines body (Hippocampus's own import format) → validated import lines. */
export function parseImportLines(body: string): ParsedImport {
  const { records, errors } = jsonlRecords(body);
  return validateRecords(records, errors);
}

export function reject(errors: LineError[], invalidLines: number): ParsedImport {
  return { ok: false, errors: errors.slice(0, LIMITS.importErrorsMax), invalidLines };
}

/** One readable sentence per error: "line 3: content: must not be empty". */
export function describeLineError(e: LineError): string {
  const where = e.line > 0 ? `line ${e.line}: ` : "";
  return `${where}${e.field ? `${e.field}: ` : ""}${e.message}`;
}
