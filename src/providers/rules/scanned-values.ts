/**
 * @module providers/rules/scanned-values
 * Where a Chinese attribute's value ends, read by a scan instead of a regex. The patterns these
 * replace found a label and then a lazy bounded value with a lookahead (`([^，。…]{1,40}?)(?=了?[，。…]|$)`);
 * recheck could not settle them in tens of minutes and called them polynomial when time-limited.
 * A label is still a regex (a flat alternation, proven linear); the value is
 * read here, each character a bounded number of times, with the same decisions the lazy value made:
 * the shortest value that the clause's end (or the given words) follows. Pure.
 */

/** Characters that end a Chinese clause (and a value in it), besides white space. */
export const ZH_CLAUSE_END = "，。！？,;；!?";
/** Particles a clause may end with after its value (「我住在上海了」): not part of the value. */
export const ZH_END_PARTICLES = "了啦呢";
/** Longest value after a label such as 住在 / 生日是 (what `{1,40}?` allowed). */
export const ZH_VALUE_MAX = 40;
/** Longest employer before 工作 / 离职 (what `{1,20}?` allowed). */
export const ZH_EMPLOYER_MAX = 20;

const CLAUSE_END = new Set(ZH_CLAUSE_END);
const PARTICLES = new Set(ZH_END_PARTICLES);
const SPACE = /\s/;

/** Whether a value stops before `c` (the clause ends there, or the text does). */
function endsClause(c: string | undefined): boolean {
  return c === undefined || CLAUSE_END.has(c) || SPACE.test(c);
}

/** Scans the value that starts at `from`: the end index, or -1 when none ends within the limit. */
export type ValueScan = (text: string, from: number) => number;

/** A value that runs to the clause's end, an end particle allowed before it: `([^…]{1,40}?)(?=(?:了|啦|呢)?(?:[…]|$))`. */
export const toClauseEnd: ValueScan = (text, from) => {
  for (let end = from + 1; end <= from + ZH_VALUE_MAX; end++) {
    if (endsClause(text[end - 1])) return -1;
    const next = PARTICLES.has(text[end]) ? end + 1 : end;
    if (endsClause(text[next])) return end;
  }
  return -1;
};

/** A value that one of `words` follows within the clause: `([^…]{1,max}?)(?:w1|w2…)`. */
export function beforeWords(words: readonly string[], max: number): ValueScan {
  return (text, from) => {
    for (let end = from + 1; end <= from + max; end++) {
      if (endsClause(text[end - 1])) return -1;
      if (words.some((w) => text.startsWith(w, end))) return end;
    }
    return -1;
  };
}

/**
 * A value read by a regex proven linear, matched only at `from`. The caller builds the pattern (at
 * module level, where the ReDoS test sees it); a pattern that is not sticky would search on.
 */
export function stickyValue(pattern: RegExp): ValueScan {
  if (!pattern.sticky) throw new TypeError(`/${pattern.source}/ must be sticky (y)`);
  return (text, from) => {
    pattern.lastIndex = from;
    const m = pattern.exec(text);
    return m ? from + m[0].length : -1;
  };
}

/**
 * A label pattern (global) and its value's scan. When the label's group 1 matched, the label may
 * also end before it (an optional 了 the value may start with, as the regex would have backtracked).
 */
export interface LabelledValue {
  label: RegExp;
  value: ValueScan;
}

/** A label (global: the search resumes after a label whose value failed) and its value's scan. */
export function labelledValue(label: RegExp, value: ValueScan): LabelledValue {
  if (!label.global) throw new TypeError(`/${label.source}/ must be global (g)`);
  return { label, value };
}

/** The first value in `text`, as the single regex `label` + value would have found it; null: none. */
export function findLabelledValue(p: LabelledValue, text: string): string | null {
  p.label.lastIndex = 0;
  for (let m = p.label.exec(text); m !== null; m = p.label.exec(text)) {
    const end = m.index + m[0].length;
    const ends = m[1] === undefined ? [end] : [end, end - m[1].length];
    for (const from of ends) {
      const valueEnd = p.value(text, from);
      if (valueEnd >= 0) return text.slice(from, valueEnd);
    }
    p.label.lastIndex = m.index + 1;
  }
  return null;
}
