/**
 * @module providers/rules/decide-conflict
 * Deterministic conflict check between a new memory and its most similar stored memories.
 * Rules that supersede: a single-valued attribute got a new value (or ended), a habit changed or a
 * number was corrected (life-changes.ts), and a like/dislike flipped about the same object. A memory that restates the same attribute value or the same
 * stance in one sentence is a duplicate. Anything else — unrelated facts, different favourite
 * kinds, different objects — is left alone: a false supersede hides a true memory, so every rule
 * needs positive evidence.
 */
import type { ConflictCandidate, ConflictDecision } from "../../memory/ports";
import { type AttributeFact, parseAttributes } from "./attributes";
import { type Habit, habitChanged, numberCorrected, readHabit, valueCorrected } from "./life-changes";
import { remainderOf } from "./remainder";
import { parseStances, type Stance } from "./sentiment";
import { bare, containment, splitClauses, splitSentences } from "./text";

/** Share of the smaller object's tokens the other must contain to be "the same thing". */
const SAME_OBJECT = 2 / 3;

/** A conjunction means the text says more than one thing ("My name is Nova and I love hiking"). */
const ADDS_MORE = /\s(?:and|also|plus|as well as)\s|并且|而且|还有|以及|同时/i;

interface Analysis {
  attributes: AttributeFact[];
  stances: Stance[];
  habit: Habit;
  text: string;
  bare: string;
  /** One clause only: nothing would be lost by merging it into an equal memory. */
  single: boolean;
}

type Verdict = { kind: "supersede" | "duplicate"; rule: string } | null;

function analyse(text: string): Analysis {
  return {
    attributes: parseAttributes(text),
    stances: parseStances(text),
    habit: readHabit(text),
    text,
    bare: bare(text),
    single: splitSentences(text).length <= 1 && splitClauses(text).length <= 1 && !ADDS_MORE.test(text),
  };
}

/**
 * Whether an ended value is the stored one: the same, the stored one's first words ("I quit Spotify"
 * ends "I'm a software engineer at Spotify in Stockholm"), or a word for the current one (CURRENT_ONE).
 */
function endsValue(stored: string, ended: string): boolean {
  return stored === ended || stored.startsWith(`${ended} `) || CURRENT_ONE.has(ended);
}

/** An ended value that names no place but the current one: 「我从原来的公司辞职了」, "I quit my job". */
const CURRENT_ONE = new Set([
  "原来的公司",
  "原公司",
  "以前的公司",
  "之前的公司",
  "老东家",
  "原单位",
  "my job",
  "my old job",
]);

function compareAttributes(next: Analysis, old: Analysis): Verdict {
  let same: string | null = null;
  for (const n of next.attributes) {
    for (const o of old.attributes) {
      if (o.attribute !== n.attribute || o.ended) continue;
      if (!n.ended && o.value !== n.value) return { kind: "supersede", rule: `attribute-changed (${n.attribute})` };
      if (n.ended && endsValue(o.value, n.value))
        return { kind: "supersede", rule: `attribute-ended (${n.attribute})` };
      if (!n.ended && o.value === n.value) same = n.attribute;
    }
  }
  const covered = next.attributes.every((n) =>
    old.attributes.some((o) => o.attribute === n.attribute && o.value === n.value),
  );
  return same !== null && covered && next.single ? { kind: "duplicate", rule: `attribute-same (${same})` } : null;
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((t) => b.has(t));
}

function compareStances(next: Analysis, old: Analysis): Verdict {
  let duplicate = false;
  for (const n of next.stances) {
    for (const o of old.stances) {
      if (n.subject !== o.subject || containment(n.object, o.object) < SAME_OBJECT) continue;
      if (n.polarity !== o.polarity) return { kind: "supersede", rule: "polarity-flip" };
      if (sameSet(n.object, o.object)) duplicate = true;
    }
  }
  return duplicate && next.single && old.stances.length === 1 ? { kind: "duplicate", rule: "same-stance" } : null;
}

function compare(next: Analysis, old: Analysis): Verdict {
  if (next.bare.length > 0 && next.bare === old.bare) return { kind: "duplicate", rule: "same-text" };
  const byAttribute = compareAttributes(next, old);
  if (byAttribute?.kind === "supersede") return byAttribute;
  // A habit that changed, a number corrected (life-changes.ts): the same thing, a new value.
  const habit = byAttribute ? null : habitChanged(next.habit, old.habit);
  if (habit !== null) return { kind: "supersede", rule: habit };
  if (!byAttribute && numberCorrected(next.text, old.text)) return { kind: "supersede", rule: "number-corrected" };
  if (!byAttribute && valueCorrected(next.text, old.text)) return { kind: "supersede", rule: "value-corrected" };
  return compareStances(next, old) ?? byAttribute;
}

/** The facts of a superseded memory the new one does not contradict (providers/rules/remainder.ts). */
function remainderAfter(next: Analysis, stored: string): string | null {
  return remainderOf(stored, (fact) => compare(next, analyse(fact))?.kind === "supersede");
}

/**
 * The rules' decision; `reason` names each rule that fired and the candidate it fired on. A
 * superseded candidate that carries other facts too gets a remainder: those facts, kept.
 */
export function decideConflictByRules(newContent: string, candidates: ConflictCandidate[]): ConflictDecision {
  const next = analyse(newContent);
  const supersedes: number[] = [];
  const remainders: { handle: number; content: string }[] = [];
  const reasons: string[] = [];
  let duplicateOf: number | null = null;
  for (const candidate of candidates) {
    const verdict = compare(next, analyse(candidate.content));
    if (!verdict) continue;
    if (verdict.kind === "supersede") {
      supersedes.push(candidate.handle);
      const rest = remainderAfter(next, candidate.content);
      if (rest !== null) remainders.push({ handle: candidate.handle, content: rest });
    } else if (duplicateOf === null) duplicateOf = candidate.handle;
    else continue;
    reasons.push(`${verdict.rule} #${candidate.handle}`);
  }
  const reason = reasons.length > 0 ? `rules: ${reasons.join("; ")}` : "rules: no conflict";
  return { supersedes, duplicateOf, reason, ...(remainders.length > 0 ? { remainders } : {}) };
}
