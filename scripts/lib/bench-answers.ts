/**
 * @module scripts/lib/bench-answers
 * Whether the text an agent receives holds a question's answer: the evidence measure counts a memory
 * as received by its id, which says nothing about what of it was shown (stage 1 may show an
 * excerpt). An answer counts as received when, both texts normalised (NFKC, lower case,
 * punctuation as spaces), the whole answer appears in the text as a run of words, or — for a short
 * answer (at most SHORT_ANSWER_WORDS content words) — each of its content words does (words other
 * than FUNCTION_WORDS; a CJK run as one unit, found anywhere in the text). LoCoMo's answers are
 * often paraphrases (dates the text says as "yesterday"), so the rate is a lower bound, meant to
 * compare ways of showing the same memories.
 */
export const SHORT_ANSWER_WORDS = 4;

/**
 * Articles, prepositions, conjunctions and pronouns: not the search's stop words, which also drop
 * words an answer may be ("may" the month, "before", "after").
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  "a an the of to in on at for with and or but by from as into about it its is are was were be been her his their them they he she i my me we our you your this that these those some".split(
    " ",
  ),
);

/** Letters, digits and marks stay; everything else separates words. */
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** NFKC, lower case, every run of other characters one space, trimmed. */
export function normalizeAnswerText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(NOT_WORD, " ").trim();
}

/** The answer's content words, in order, each once. */
export function contentWords(answer: string): string[] {
  const words = normalizeAnswerText(answer).split(" ").filter(Boolean);
  return [...new Set(words.filter((w) => CJK.test(w) || !FUNCTION_WORDS.has(w)))];
}

/** Whether `text` holds `answer` (see the module header). */
export function holdsAnswer(text: string, answer: string): boolean {
  const said = normalizeAnswerText(answer);
  if (!said) return false;
  const got = ` ${normalizeAnswerText(text)} `;
  if (got.includes(` ${said} `)) return true;
  const content = contentWords(answer);
  if (content.length === 0 || content.length > SHORT_ANSWER_WORDS) return false;
  return content.every((w) => (CJK.test(w) ? got.includes(w) : got.includes(` ${w} `)));
}

/** Share of the answered questions whose answer `holds`; null when no question has an answer. */
export function answerRate(rows: { answer?: string; text: string }[]): number | null {
  const answered = rows.filter((r) => r.answer !== undefined);
  if (answered.length === 0) return null;
  return answered.filter((r) => holdsAnswer(r.text, r.answer!)).length / answered.length;
}
