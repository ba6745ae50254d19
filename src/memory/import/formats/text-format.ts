/**
 * @module memory/import/formats/text-format
 * Plain text or Markdown: one memory per line or list item. List markers ("- ", "* ", "+ ",
 * "1. ", "- [ ] ") are removed; a Markdown heading names the category of the items under it;
 * blank lines, rules (---) and code fences are skipped, as are the lines inside a fence. Pure.
 */
import { LIMITS } from "../../limits";
import type { Converted, RawRecord } from "./raw-record";

// Each pattern is anchored and has no nested quantifiers: linear time on any line.
// The title starts at its first non-space: "\s+(.*)" would let the two overlap (quadratic on "#" + spaces).
const HEADING = /^#{1,6}\s+(\S.*)?$/;
const BULLET = /^(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
const RULE = /^(?:-{3,}|\*{3,}|_{3,})$/;
const FENCE = /^(?:```|~~~)/;

function headingCategory(text: string): string | undefined {
  const c = text
    .replace(/[#*_`]/g, "")
    .trim()
    .toLowerCase()
    .slice(0, LIMITS.categoryMaxChars)
    .trim();
  return c === "" ? undefined : c;
}

export function convertText(body: string): Converted {
  const records: RawRecord[] = [];
  let category: string | undefined;
  let inFence = false;
  body.split(/\r?\n/).forEach((raw, i) => {
    const text = raw.trim();
    if (FENCE.test(text)) {
      inFence = !inFence;
      return;
    }
    if (inFence || text === "" || RULE.test(text)) return;
    const heading = HEADING.exec(text);
    if (heading) {
      category = headingCategory(heading[1] ?? "");
      return;
    }
    const content = text.replace(BULLET, "").trim();
    if (content === "") return;
    records.push({ line: i + 1, value: category ? { content, category } : { content } });
  });
  if (records.length === 0)
    return { ok: false, errors: [{ line: 0, field: null, message: "the text has no lines to import" }] };
  return { ok: true, records };
}
