/**
 * @module providers/rules/text
 * Small text helpers for the deterministic rules: normalisation, sentence and clause splitting,
 * and the token sets used to ask "are these two phrases about the same thing?" (Latin words with
 * a light stemmer, Chinese as character bigrams). Kept local to the rules on purpose: the rules'
 * behaviour is documented in docs/write-rules.md and must not shift when search tokenisation does.
 */

/** NFKC (full-width → ASCII), lower case, straight apostrophes, single spaces. */
export function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[’‘`]/g, "'").replace(/\s+/g, " ").trim();
}

export interface Span {
  start: number;
  end: number;
}

// CJK and !? end a sentence anywhere; "." only before whitespace or the end, so 3.5 and a.b@c.d
// stay whole. Closing quotes and brackets belong to the sentence they close.
// Every run starts at its first character (the lookbehinds): a run that turns out not to end a
// sentence is not retried from each of its characters, which made "…" × 32,000 quadratic.
const BOUNDARY = /(?<![。！？!?…])[。！？!?…]+[”’」』）)"']*|(?<!\.)\.+[”’」』）)"']*(?=\s|$)|\n+/g;

/** What one clause may cost the rules: longer clauses are cut before any pattern sees them. */
export const CLAUSE_MAX_CHARS = 1000;

/** Sentence spans over the original text; `end` includes the terminator. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  let start = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const end = (m.index ?? 0) + m[0].length;
    if (text.slice(start, end).replace(/[\s。！？!?….]/g, "").length > 0) spans.push({ start, end });
    start = end;
  }
  if (text.slice(start).trim().length > 0) spans.push({ start, end: text.length });
  return spans;
}

/** Trimmed sentences, terminators kept ("I'm vegan.", 「我喜欢猫。」). */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text)
    .map((s) => text.slice(s.start, s.end).trim())
    .filter((s) => s.length > 0);
}

/** Normalised clauses: sentences further split on commas, semicolons and "but"/但是. */
export function splitClauses(text: string): string[] {
  return splitSentences(text)
    .flatMap((s) => s.split(/[,;，；、]|\s(?:but|though|although|whereas)\s|但是|可是|不过|然而/i))
    .map((c) => normalise(c.slice(0, CLAUSE_MAX_CHARS).replace(/(?<![。！？!?….])[。！？!?….]+$/g, "")))
    .filter((c) => c.length > 0);
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** Light English stemmer: enough for like/likes/liked, play/playing, movie/movies to meet. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, "");
  if (w.length >= 6 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length >= 5 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length >= 4 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length >= 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/**
 * Content tokens of a normalised phrase: stemmed Latin words not in `stopWords`, and Chinese
 * character bigrams (a lone character stays a unigram, so 猫 still meets 猫). `stopPhrases` are
 * cut out first and leave a gap, so no bigram spans a removed filler.
 */
export function contentTokens(
  text: string,
  stopWords: ReadonlySet<string>,
  stopPhrases: readonly string[] = [],
): Set<string> {
  let rest = text;
  for (const phrase of stopPhrases) rest = rest.split(phrase).join(" ");
  const out = new Set<string>();
  for (const run of rest.match(/[\p{Script=Latin}\d']+|[\u3400-\u9fff\uf900-\ufaff]+/gu) ?? []) {
    if (CJK.test(run)) {
      const chars = Array.from(run);
      if (chars.length === 1) out.add(run);
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
    } else if (!stopWords.has(run)) {
      out.add(stem(run));
    }
  }
  return out;
}

/** Shared tokens over the smaller set's size: 1 when one phrase is contained in the other. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / Math.min(a.size, b.size);
}

/** Text reduced to letters and digits, for "same words, different punctuation" comparisons. */
export function bare(text: string): string {
  return normalise(text).replace(/[^\p{L}\p{N}]/gu, "");
}
