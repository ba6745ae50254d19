/**
 * @module memory/import/formats/mem0-format
 * A mem0 `get_all` answer or an OpenMemory export, as one JSON document: an array of memories, or
 * an object holding it under `results` (mem0 v1.1+) or `memories` (OpenMemory). Each item's text is
 * `memory` (mem0) or `content` / `text` (OpenMemory); `categories` become the category (the first)
 * and tags; `created_at` and `updated_at` are kept; the item's id becomes `external_id` (prefixed "mem0:"), so a
 * re-import skips what is already there. Items are numbered from 1 in error messages. The items'
 * `user_id`s are reported beside the records (`mem0UserIds`): the import route lets them name the end
 * user of an app key (memory/import/import-owner.ts). Pure.
 */
import { LIMITS } from "../../limits";
import { boundedId, boundedTag, type Converted, isObject, parseJson, type RawRecord } from "./raw-record";

/** The memory items of a parsed document, or null when it is not a mem0-shaped document. */
export function mem0Items(doc: unknown): unknown[] | null {
  const list = Array.isArray(doc)
    ? doc
    : isObject(doc) && Array.isArray(doc.results)
      ? doc.results
      : isObject(doc) && Array.isArray(doc.memories)
        ? doc.memories
        : null;
  if (!list) return null;
  const looksLikeMem0 = (item: unknown) =>
    isObject(item) &&
    (typeof item.memory === "string" || typeof item.content === "string" || typeof item.text === "string");
  return list.length > 0 && looksLikeMem0(list[0]) ? list : null;
}

/** ISO 8601 as the import line wants it; mem0 writes microseconds and offsets, which Date reads. */
function isoTime(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

function categories(item: Record<string, unknown>): string[] {
  const raw = Array.isArray(item.categories) ? item.categories : [];
  return raw
    .filter((c): c is string => typeof c === "string" && c.trim() !== "")
    .map((c) => boundedTag(c, LIMITS.tagMaxChars))
    .slice(0, LIMITS.tagsMax);
}

function toLine(item: unknown): unknown {
  if (!isObject(item)) return item; // validation names the problem
  const cats = categories(item);
  const line: Record<string, unknown> = { content: item.memory ?? item.content ?? item.text };
  if (cats.length > 0) {
    line.category = cats[0].slice(0, LIMITS.categoryMaxChars);
    line.tags = cats;
  }
  if (item.created_at !== undefined && item.created_at !== null) line.created_at = isoTime(item.created_at);
  if (item.updated_at !== undefined && item.updated_at !== null) line.updated_at = isoTime(item.updated_at);
  if (typeof item.id === "string" || typeof item.id === "number")
    line.external_id = boundedId(`mem0:${item.id}`, LIMITS.externalIdMaxChars);
  return line;
}

export function convertMem0(body: string): Converted {
  const { value, error } = parseJson(body);
  if (error !== undefined)
    return { ok: false, errors: [{ line: 0, field: null, message: `the file is not valid JSON (${error})` }] };
  const items = mem0Items(value);
  if (!items)
    return {
      ok: false,
      errors: [
        {
          line: 0,
          field: null,
          message: "expected a mem0 export: an array of memories, or an object with results or memories",
        },
      ],
    };
  const records: RawRecord[] = items.map((item, i) => ({ line: i + 1, value: toLine(item) }));
  return { ok: true, records };
}

/** The distinct `user_id`s a mem0 document's items name, in order of first appearance (ids only, as written). */
export function mem0UserIds(body: string): string[] {
  const items = mem0Items(parseJson(body).value) ?? [];
  const ids = new Set<string>();
  for (const item of items)
    if (isObject(item) && (typeof item.user_id === "string" || typeof item.user_id === "number"))
      ids.add(String(item.user_id));
  return [...ids];
}
