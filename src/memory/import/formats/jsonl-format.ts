/**
 * @module memory/import/formats/jsonl-format
 * Hippocampus's plain import format: JSON Lines, one import line per line (fields in
 * memory/import/import-line.ts). Also the reader of the export format's lines (hippocampus-format).
 * Pure.
 */
import type { LineError } from "../import-line";
import { type Converted, isObject, numberedLines, parseJson, type RawRecord } from "./raw-record";

export function jsonlRecords(body: string): { records: RawRecord[]; errors: LineError[] } {
  const records: RawRecord[] = [];
  const errors: LineError[] = [];
  for (const { line, text } of numberedLines(body)) {
    const { value, error } = parseJson(text);
    if (error !== undefined) errors.push({ line, field: null, message: `is not valid JSON (${error})` });
    else if (!isObject(value)) errors.push({ line, field: null, message: "must be a JSON object" });
    else records.push({ line, value });
  }
  return { records, errors };
}

export function convertJsonl(body: string): Converted {
  const { records, errors } = jsonlRecords(body);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, records };
}
