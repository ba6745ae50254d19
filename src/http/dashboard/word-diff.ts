/**
 * @module http/dashboard/word-diff
 * A word-level diff of two texts for the history timeline: words as Intl.Segmenter finds them in
 * the page's language (Chinese has no spaces, so splitting on whitespace would compare whole
 * sentences), compared with jsdiff's `diffArrays`. Texts are at most 8,000 characters, and the
 * diff is bounded (`maxEditLength`), so a page never spends unbounded time on two unrelated texts:
 * past the bound the whole old text shows as removed and the whole new text as added.
 */
import { diffArrays } from "diff";

export interface DiffPart {
  text: string;
  kind: "same" | "added" | "removed";
}

const MAX_EDIT_LENGTH = 400;

function words(text: string, locale: string): string[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: "word" });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The parts of `before` → `after`, in reading order, adjacent parts of one kind joined. */
export function wordDiff(before: string, after: string, locale: string): DiffPart[] {
  const changes = diffArrays(words(before, locale), words(after, locale), { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) {
    return [
      { text: before, kind: "removed" },
      { text: after, kind: "added" },
    ];
  }
  const parts: DiffPart[] = [];
  for (const change of changes) {
    const kind = change.added ? "added" : change.removed ? "removed" : "same";
    const text = change.value.join("");
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else if (text !== "") parts.push({ text, kind });
  }
  return parts;
}
