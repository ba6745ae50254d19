/**
 * @module providers/rules/remainder
 * What is left of a stored memory once a new one contradicts part of it: 「我住在上海，每天骑自行车上班」
 * superseded by 「我搬到北京了」 leaves 「我每天骑自行车上班」; "I live in Lisbon and teach yoga on
 * weekends" superseded by "I moved to Porto" leaves "I teach yoga on weekends". The memory is cut
 * into its facts (sentences, clauses, "and"/并且 joins); each fact is checked against the new memory
 * by the same rules that decided the supersede; the facts none contradicts are the remainder, with
 * the memory's subject restored where a fact had left it out. Null when nothing, or everything,
 * would be left. Pure.
 */

/** Where one fact of a compound memory ends: sentence and clause marks, and "and"-type joins. */
// Each run of spaces is tried once (the lookbehind), or a long run before no "and" rescans it from every space.
const FACT_BREAK =
  /[。！？!?；;，,\n]+|\.(?=\s|$)|(?<!\s)\s+(?:and(?: also)?|as well as|plus)\s+|并且|而且|同时|另外|此外/gi;

/** A subject the first fact states and the others may omit ("I", "My sister", 「我」, 「我妹妹」). */
const EN_SUBJECT = /^(?:I|We|He|She|They|(?:My|Our|His|Her|Their) [a-z]+|[A-Z][a-z]+)\s/;
const ZH_SUBJECT = /^(?:我们|我|他们|她们|他|她)/;
/** A fact that already names its own subject. */
const EN_HAS_SUBJECT = /^(?:I|I'm|I've|I'd|We|He|She|They|It|My|Our|His|Her|Their|The|[A-Z][a-z]+)\b/;

/**
 * A part that only describes the one before it ("I rent a place in Lyon, close to the river",
 * 「我住在上海，离公司很近」「我每天坐地铁上班，单程一个小时」): not a fact of its own, so it stays with it and goes with it.
 */
const DESCRIBES_BEFORE =
  /^(?:close to|near|nearby|next to|right by|not far from|by the|with a|with an|in the|on the|which|where|who|just off|around the corner)\b|^(?:离|靠近|挨着|旁边|附近|单程|来回|往返)/i;

/**
 * A part that is only a day or a time of day, left by an "and" inside a time ("every Tuesday and
 * Thursday evening"): the rest of the time before it, not a fact of its own.
 */
const TIME_ONLY =
  /^(?:(?:every|each|on)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend|morning|afternoon|evening|night)s?(?:\s+(?:morning|afternoon|evening|night)s?)?$/i;

function facts(text: string): string[] {
  const parts: string[] = [];
  for (const raw of text.split(FACT_BREAK)) {
    const f = raw.trim();
    if (f.length === 0) continue;
    if (parts.length > 0 && TIME_ONLY.test(f)) parts[parts.length - 1] += ` and ${f}`;
    else if (parts.length > 0 && DESCRIBES_BEFORE.test(f)) parts[parts.length - 1] += `, ${f}`;
    else parts.push(f);
  }
  return parts;
}

function subjectOf(text: string): { subject: string; zh: boolean } | null {
  const zh = ZH_SUBJECT.exec(text);
  if (zh) return { subject: zh[0], zh: true };
  const en = EN_SUBJECT.exec(text);
  return en ? { subject: en[0].trim(), zh: false } : null;
}

function withSubject(fact: string, subject: { subject: string; zh: boolean } | null): string {
  if (!subject) return fact;
  if (subject.zh) return ZH_SUBJECT.test(fact) ? fact : `${subject.subject}${fact}`;
  return EN_HAS_SUBJECT.test(fact) ? fact : `${subject.subject} ${fact}`;
}

/**
 * The facts of `stored` that `contradicts` (the rules' own supersede test, new memory vs one fact)
 * leaves standing, joined; null when the memory is one fact, or when none or all are contradicted.
 */
export function remainderOf(stored: string, contradicts: (fact: string) => boolean): string | null {
  const parts = facts(stored);
  if (parts.length < 2) return null;
  const kept = parts.filter((p) => !contradicts(p));
  if (kept.length === 0 || kept.length === parts.length) return null;
  const subject = subjectOf(parts[0]);
  const zh = /\p{Script=Han}/u.test(stored);
  const restored = kept.map((f) => withSubject(f, subject));
  return zh ? `${restored.join("，")}` : restored.join(", ");
}
