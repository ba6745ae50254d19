/**
 * @module memory/text/idioms
 * Phrases whose words say something else than what they mean, read as the word they mean: "what do I
 * do for a living" asks about work (and its "living" shares the stem of "lives in Lisbon"); "on
 * Saturdays and Sundays" is at the weekend; 「周六日」「双休日」 are 周末. Recall searches the meaning
 * beside the words (query-analysis.ts) and judges coverage on it, in the question and in the candidate
 * alike (recall/abstention.ts), so "I repair bicycles for a living" and "I hike on weekends" still
 * answer. Pure; each pattern is a fixed phrase with bounded runs of spaces (linear).
 */

const IDIOMS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:for|earns?|earning|earned|makes?|making|made)\s{1,3}a\s{1,3}living\b/giu, " work "],
  [/\bsaturdays?\s{1,3}(?:and|&|or)\s{1,3}sundays?\b/giu, " weekend "],
  [/周六日|周六周日|周六和周日|周六、周日|星期六和星期天|星期六和星期日|双休日/gu, " 周末 "],
];

/** `text` with each idiom replaced by the word it means. */
export function readIdioms(text: string): string {
  return IDIOMS.reduce((t, [pattern, meaning]) => t.replace(pattern, meaning), text);
}
