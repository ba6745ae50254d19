/**
 * @module providers/rules/summarize
 * Extractive summary without a model: the leading sentences that fit. A memory's first sentences
 * usually carry its point, and cutting at a sentence end keeps the summary readable and faithful
 * (no words the user did not write, except a closing "…" when even one sentence is too long).
 */
import { sentenceSpans } from "./text";

const ELLIPSIS = "…";

/** Cuts one over-long sentence, at a space in the last third when there is one (whole words). */
function truncate(sentence: string, maxChars: number): string {
  const room = Math.max(0, maxChars - ELLIPSIS.length);
  let cut = sentence.slice(0, room);
  // Never leave half of a surrogate pair (emoji) at the end.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.lastIndexOf(" ");
  if (space > room * (2 / 3)) cut = cut.slice(0, space);
  return `${cut.trimEnd()}${ELLIPSIS}`;
}

/** The longest run of whole leading sentences within `maxChars`; at least part of the first. */
export function summarizeByRules(content: string, maxChars: number): string {
  const text = content.trim();
  if (maxChars <= 0) return "";
  if (text.length <= maxChars) return text;
  const spans = sentenceSpans(text);
  let best = "";
  for (const span of spans) {
    const candidate = text.slice(0, span.end).trim();
    if (candidate.length > maxChars) break;
    best = candidate;
  }
  if (best.length > 0) return best;
  const first = spans.length > 0 ? text.slice(spans[0].start, spans[0].end).trim() : text;
  return maxChars <= ELLIPSIS.length ? first.slice(0, maxChars) : truncate(first, maxChars);
}
