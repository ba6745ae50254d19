/**
 * @module memory/import/formats/text-format
 * Plain text or Markdown: one memory per line or list item. List markers ("- ", "* ", "+ ",
 * "1. ", "- [ ] ") are removed; a Markdown heading names the category of the items under it: its
 * list, or the paragraphs under a heading that has no list — a paragraph after a blank line that
 * follows the heading's list is the document's own text again, not the heading's. A calendar date
 * written in a line ("on 2027-01-14", 「2027年1月14日」) becomes its event_time
 * (memory/text/written-date.ts). Blank lines, rules (---) and code fences are skipped, as are the
 * lines inside a fence. Pure.
 */
import { LIMITS } from "../../limits";
import { writtenDate } from "../../text/written-date";
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

/** Where the reader is: the heading's category, whether its list has begun, and a blank line since. */
interface Section {
  category?: string;
  hadList: boolean;
  gap: boolean;
}

function record(line: number, content: string, category: string | undefined): RawRecord {
  const date = writtenDate(content);
  return {
    line,
    value: { content, ...(category ? { category } : {}), ...(date ? { event_time: date } : {}) },
  };
}

/** The category a content line falls under, updating the section (a paragraph after the list leaves it). */
function categoryOf(section: Section, isItem: boolean): string | undefined {
  if (!isItem && section.hadList && section.gap) section.category = undefined;
  if (isItem) section.hadList = true;
  section.gap = false;
  return section.category;
}

export function convertText(body: string): Converted {
  const records: RawRecord[] = [];
  const section: Section = { hadList: false, gap: false };
  let inFence = false;
  body.split(/\r?\n/).forEach((raw, i) => {
    const text = raw.trim();
    if (FENCE.test(text)) {
      inFence = !inFence;
      return;
    }
    if (inFence || RULE.test(text)) return;
    if (text === "") {
      section.gap = true;
      return;
    }
    const heading = HEADING.exec(text);
    if (heading) {
      Object.assign(section, { category: headingCategory(heading[1] ?? ""), hadList: false, gap: false });
      return;
    }
    const isItem = BULLET.test(text);
    const content = text.replace(BULLET, "").trim();
    if (content === "") return;
    records.push(record(i + 1, content, categoryOf(section, isItem)));
  });
  if (records.length === 0)
    return { ok: false, errors: [{ line: 0, field: null, message: "the text has no lines to import" }] };
  return { ok: true, records };
}
