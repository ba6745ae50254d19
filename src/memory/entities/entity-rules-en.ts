/**
 * @module memory/entities/entity-rules-en
 * Offline extraction of the entities an English memory names, and the relations it states. Precise
 * rather than greedy: a name is a capitalised word (or a run of them) inside a sentence, or at a
 * sentence's start only when a verb that people do follows it ("Ana works as…"), its possessive is
 * used ("Ana's"), or it is tied to a relation word ("Ana is my sister"). Linear time: one token scan,
 * then bounded look-arounds over the tokens (en-tokens.ts); kinds come from entity-kind-en.ts. No
 * regex backtracks over user text.
 */

import { commonWord } from "./common-words";
import { type Tok, tokenize, word } from "./en-tokens";
import { guessKind, PERSON_VERBS } from "./entity-kind-en";
import type { EntityInput, EntityKind, RelationInput } from "./entity-types";
import { placeName } from "./gazetteer";
import { KIND_CUE, keepStronger } from "./kind-cues";
import { petKindAt } from "./pet-kinds";
import { EN_RELATIONS } from "./relation-words";

/** The most words a kind of pet is named with ("soft-coated wheaten terrier"). */
const PET_KIND_WORDS_MAX = 4;

/** Capitalised words that are never names here. */
const NOT_NAMES = new Set(
  (
    "i im ive id ill the a an my our your his her their its this that these those we you he she they it " +
    "and but or so then if when while after before because also just yes no ok okay hey hi hello thanks " +
    "yesterday today tomorrow tonight last next every some many most all any each both " +
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays " +
    "saturdays sundays january february march april may june july " +
    "august september october november december mr mrs ms dr mom dad what who where why how which wow oh " +
    "there here what's it's that's i'm i've i'd i'll let's please sure well great good nice cool redacted"
  ).split(" "),
);

/** Of those, the ones too common to make a sentence-initial word a name on their own. */
const WEAK_VERBS = new Set(["is", "was", "has", "had", "got", "likes", "loves", "wants", "feels", "thinks"]);

/** A digit marks a code, a model number or a secret's remains ("N3", "B12", "Xk9Qm2"), never a name. */
const DIGIT = /\p{N}/u;

function nameWord(toks: Tok[], i: number): boolean {
  const t = toks[i];
  return t !== undefined && t.cap && !t.punct && !NOT_NAMES.has(t.lower) && t.text.length > 1 && !DIGIT.test(t.text);
}

const GREETING_WORDS = new Set(["hi", "hello", "hey"]);

/**
 * Where the name at `at` is the speaker's own: "my name is X", "call me X" / "calls me X", and "I'm X"
 * or "I am X" when a greeting opens the sentence or the name has two words ("Hi, I'm Dani", "I'm
 * Daniel Weber"; not "I'm Jewish").
 */
function ownNameAt(toks: Tok[], at: number, span: NameSpan): boolean {
  const w = (k: number) => word(toks[at - k]);
  if (w(3) === "my" && w(2) === "name" && (w(1) === "is" || w(1) === "was")) return true;
  if ((w(2) === "call" || w(2) === "calls") && w(1) === "me") return true;
  const iAm = w(1) === "i'm" || w(1) === "i’m" || (w(2) === "i" && w(1) === "am");
  if (!iAm) return false;
  const from = w(1) === "i'm" || w(1) === "i’m" ? at - 1 : at - 2;
  const greeted = GREETING_WORDS.has(word(toks[from - 1])) || GREETING_WORDS.has(word(toks[from - 2]));
  return greeted || span.end - span.start > 1;
}

/** A sentence-initial word is a name only with evidence: a person's verb, a possessive, a relation, or the gazetteer. */
function initialIsName(toks: Tok[], start: number, end: number): boolean {
  const next = toks[end];
  const lower = toks
    .slice(start, end)
    .map((t) => t.lower)
    .join(" ");
  if (placeName(lower) && !(end - start === 1 && commonWord(lower))) return true;
  if (toks[end - 1].possessive) return true;
  if (!next || next.punct) return next?.text === ",";
  if (next.lower === "and" && word(toks[end + 1]) === "i") return true;
  if (PERSON_VERBS.has(next.lower) && !WEAK_VERBS.has(next.lower)) return true;
  const copula = copulaEnd(toks, end);
  return copula > end && word(toks[copula]) === "my" && relationAt(toks, copula + 1) !== null;
}

/** End (exclusive) of the name starting at `i`: up to four capitalised words, "of" between them. */
function nameEnd(toks: Tok[], i: number): number {
  let end = i + 1;
  while (end - i < 4 && !toks[end - 1].possessive) {
    if (nameWord(toks, end) && !toks[end].initial) end++;
    else if (word(toks[end]) === "of" && nameWord(toks, end + 1)) end += 2;
    else break;
  }
  return end;
}

export interface NameSpan {
  name: string;
  kind: EntityKind;
  cue: number;
  start: number;
  end: number;
}

/** "my friends Josh and Mark": a name joined by "and"/"or" to the name before takes its kind, weakly, when it has none. */
function coordinated(before: NameSpan | undefined, toks: Tok[], i: number, own: { kind: EntityKind; cue: number }) {
  const joined =
    before !== undefined && before.end === i - 1 && (word(toks[i - 1]) === "and" || word(toks[i - 1]) === "or");
  return joined && own.kind === "other" && before.kind !== "other" ? { kind: before.kind, cue: KIND_CUE.weak } : own;
}

/** The names of a text's tokens, in order. */
function nameSpans(toks: Tok[]): NameSpan[] {
  const spans: NameSpan[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (!nameWord(toks, i)) continue;
    const end = nameEnd(toks, i);
    if (toks[i].initial && !initialIsName(toks, i, end)) {
      i = end - 1;
      continue;
    }
    const name = toks
      .slice(i, end)
      .map((t) => t.text)
      .join(" ");
    const kind = coordinated(spans.at(-1), toks, i, guessKind(toks, i, end));
    // A lone everyday word with nothing saying what it names ("Lazy", "Yep,") is not a name; after
    // "the" it is a title ("the Hobbit").
    // After "called" / "named" it is the name given ("a dog called Biscuit").
    const given = word(toks[i - 1]) === "the" || NAMING.has(word(toks[i - 1]));
    if (end - i === 1 && kind.kind === "other" && !given && commonWord(name)) continue;
    spans.push({ name, ...kind, start: i, end });
    i = end - 1;
  }
  return spans;
}

export interface Extraction {
  entities: EntityInput[];
  relations: RelationInput[];
}

/**
 * The relation word at `i` ("sister", "best friend"), and where it ends; a kind of dog or cat
 * ("golden retriever", "tabby cat": pet-kinds.ts) is that animal.
 */
function relationWordAt(toks: Tok[], i: number): { word: string; end: number } | null {
  const two = `${word(toks[i])} ${word(toks[i + 1])}`;
  if (EN_RELATIONS.has(two)) return { word: two, end: i + 2 };
  if (EN_RELATIONS.has(word(toks[i]))) return { word: word(toks[i]), end: i + 1 };
  const pet = petKindAt(
    toks.slice(i, i + PET_KIND_WORDS_MAX).map((t) => word(t)),
    0,
  );
  return pet ? { word: pet.animal, end: i + pet.length } : null;
}

/** The relation word at `i`, after at most one word that only says which one ("my big sister", "my younger brother"). */
function relationAt(toks: Tok[], i: number): { word: string; end: number } | null {
  return relationWordAt(toks, i) ?? (RELATION_MODIFIERS.has(word(toks[i])) ? relationWordAt(toks, i + 1) : null);
}

const NAMING = new Set(["called", "named"]);
/** Words between "my" and a relation word that keep the relation: "my big sister", "my late father". */
const RELATION_MODIFIERS = new Set(
  "big little younger older elder eldest oldest youngest baby twin kid step half late dear new old".split(" "),
);
/** Capitalised words that say where someone is from or what they believe, not who they are ("my sister is Canadian"). */
const BELONGINGS = new Set(
  (
    "american british english french german spanish italian chinese japanese korean indian canadian mexican " +
    "brazilian dutch irish scottish welsh australian russian polish swedish norwegian danish finnish greek " +
    "turkish portuguese swiss austrian belgian vietnamese thai filipino indonesian egyptian nigerian african " +
    "european asian latino catholic christian jewish muslim hindu buddhist"
  ).split(" "),
);
/** "I have a brother", "I've got a sister": a relation the next name is. */
const HAVE = new Set(["have", "i've", "i’ve", "got", "has"]);
/** "I share the flat with Tom": the flatmate. */
const SHARE = new Set(["share", "shares", "sharing", "shared"]);
const HOMES = new Set(["flat", "apartment", "house", "place", "room", "home", "dorm"]);

/**
 * Where the name after "my <relation>" starts: right after it ("my sister Ana", "my sister, Ana"),
 * or after the words that name it ("my best friend is called Sarah", "my boss is named Priya", "my
 * dog named Rex", "my brother's name is Tom").
 */
function namedAt(toks: Tok[], end: number): number {
  if (toks[end]?.text === ",") return NAMING.has(word(toks[end + 1])) ? end + 2 : end + 1;
  const copula = word(toks[end]) === "is" || word(toks[end]) === "was";
  if (copula && NAMING.has(word(toks[end + 1]))) return end + 2;
  if (NAMING.has(word(toks[end]))) return end + 1;
  if (toks[end - 1]?.possessive && word(toks[end]) === "name" && copula === false && word(toks[end + 1]) === "is")
    return end + 2;
  return end;
}

/**
 * "my manager is Raj.": the name after "is" ends its sentence (or its clause), and is not an
 * everyday word ("my sister is Canadian", "my boss is Happy with it" name nobody).
 */
function isNameAt(toks: Tok[], end: number, byStart: Map<number, NameSpan>): NameSpan | undefined {
  if (word(toks[end]) !== "is") return undefined;
  const span = byStart.get(end + 1);
  if (!span) return undefined;
  const next = toks[span.end];
  const closes = next === undefined || next.punct || word(next) === "and";
  const oneWord = span.end - span.start === 1;
  return closes && !(oneWord && (commonWord(span.name) || BELONGINGS.has(span.name.toLowerCase()))) ? span : undefined;
}

/** Where the copula after a name ends: "Ana is|was my…", "Jake has been my…", or right where it starts. */
function copulaEnd(toks: Tok[], at: number): number {
  const w = word(toks[at]);
  if (w === "is" || w === "was") return at + 1;
  if ((w === "has" || w === "had") && word(toks[at + 1]) === "been") return at + 2;
  return at;
}

const LOCATIVE: Record<string, { prep: string; predicate: string }> = {
  live: { prep: "in", predicate: "lives_in" },
  lives: { prep: "in", predicate: "lives_in" },
  lived: { prep: "in", predicate: "lives_in" },
  living: { prep: "in", predicate: "lives_in" },
  moved: { prep: "to", predicate: "moved_to" },
  moving: { prep: "to", predicate: "moved_to" },
  work: { prep: "at", predicate: "works_at" },
  works: { prep: "at", predicate: "works_at" },
  worked: { prep: "at", predicate: "works_at" },
  working: { prep: "at", predicate: "works_at" },
  study: { prep: "at", predicate: "studies_at" },
  studies: { prep: "at", predicate: "studies_at" },
  studied: { prep: "at", predicate: "studies_at" },
};

/**
 * Entities and relations of one English text. `self` is who "my" and "I" are: the user, or the
 * speaker of a conversation turn (whose own name then becomes a relation end, not a mention).
 */
export function extractEnglish(text: string, self: string, selfAlias: (relation: string) => string[]): Extraction {
  const toks = tokenize(text);
  const spans = nameSpans(toks);
  const byStart = new Map(spans.map((s) => [s.start, s]));
  const entities = new Map<string, EntityInput>();
  const relations: RelationInput[] = [];
  for (const s of spans) {
    const known = entities.get(s.name);
    if (known) keepStronger(known, s);
    else entities.set(s.name, { name: s.name, kind: s.kind, cue: s.cue, aliases: [] });
  }
  const tie = (span: NameSpan, rel: string) => {
    const info = EN_RELATIONS.get(rel)!;
    const e = entities.get(span.name)!;
    keepStronger(e, { kind: info.kind, cue: KIND_CUE.relation });
    e.aliases.push(`my ${rel}`, ...selfAlias(rel));
    relations.push({ subject: span.name, predicate: info.predicate, object: self });
  };
  for (let i = 0; i < toks.length; i++) {
    const w = word(toks[i]);
    const had = (w === "a" || w === "an") && HAVE.has(word(toks[i - 1]));
    // "our dog Rex", "our son Leo": the user's too.
    if (w === "my" || w === "our" || had) {
      const rel = relationAt(toks, i + 1);
      if (!rel) continue;
      const span = byStart.get(namedAt(toks, rel.end)) ?? (had ? undefined : isNameAt(toks, rel.end, byStart));
      if (span) tie(span, rel.word);
      continue;
    }
    const mate =
      sharedHomeWith(toks, i, byStart) ??
      reportsTo(toks, i, byStart) ??
      partnerAt(toks, i, byStart) ??
      someoneNewNamed(toks, i, byStart);
    if (mate) tie(mate.span, mate.rel);
    const span = byStart.get(i);
    if (span && ownNameAt(toks, i, span)) {
      const e = entities.get(span.name)!;
      keepStronger(e, { kind: "person", cue: KIND_CUE.relation });
      relations.push({ subject: span.name, predicate: "name_of", object: self });
    }
    if (span) {
      const after = toks[span.end]?.text === "," ? span.end + 1 : span.end;
      const copula = copulaEnd(toks, after);
      if (word(toks[copula]) === "my" && (copula > after || after > span.end)) {
        const rel = relationAt(toks, copula + 1);
        if (rel) tie(span, rel.word);
      }
    }
    locative(toks, i, span, byStart, self, relations);
  }
  return { entities: [...entities.values()], relations };
}

/** "I share the flat with Tom", "sharing a house with Mia": the user's flatmate. */
function sharedHomeWith(toks: Tok[], i: number, byStart: Map<number, NameSpan>) {
  if (!SHARE.has(word(toks[i]))) return undefined;
  const home = ["the", "a", "an", "my", "our"].includes(word(toks[i + 1])) ? i + 2 : i + 1;
  if (!HOMES.has(word(toks[home])) || word(toks[home + 1]) !== "with") return undefined;
  const span = byStart.get(home + 2);
  return span ? { span, rel: "flatmate" } : undefined;
}

/** After "I'm" / "I am" (and "now", "currently"), the words that make the next name a partner. */
const PARTNER_AFTER_I_AM: Record<string, number> = { with: 1, dating: 1, seeing: 1, engaged: 2, married: 2 };
/** "Ava and I moved in together", "… got engaged", "… are dating". */
const TOGETHER = new Set([
  "moved in together",
  "got engaged",
  "got married",
  "are dating",
  "are together",
  "started dating",
  "have been together",
]);

/** "I'm with X" is about love only beside one of these ("…, things with Taylor ended"); else it may be a job. */
const LOVE_WORDS = new Set(
  "ended broke split dating relationship boyfriend girlfriend partner together love ex breakup".split(" "),
);

/** Where "I'm" / "I am" at `i` ends (after "now", "currently", "still"), or -1. */
function iAmEnd(toks: Tok[], i: number): number {
  const w = word(toks[i]);
  let at = w === "i'm" || w === "i’m" ? i + 1 : w === "i" && word(toks[i + 1]) === "am" ? i + 2 : -1;
  if (at > 0 && ["now", "currently", "still"].includes(word(toks[at]))) at++;
  return at;
}

/**
 * "I'm with Robin now", "I'm dating Sam", "I'm engaged to Alex", "Ava and I moved in together": the
 * user's partner. After "with" the name must end the clause (or be followed by "now"), and be nobody's
 * company or town ("I'm with Google now" is a job).
 */
function partnerAt(toks: Tok[], i: number, byStart: Map<number, NameSpan>) {
  const at = iAmEnd(toks, i);
  const w = word(toks[at]);
  if (at > 0 && PARTNER_AFTER_I_AM[w] !== undefined) {
    const step = PARTNER_AFTER_I_AM[w];
    if (step === 2 && word(toks[at + 1]) !== "to") return undefined;
    const span = byStart.get(at + step);
    if (!span || span.kind === "organization" || span.kind === "place") return undefined;
    const next = toks[span.end];
    const ends = next === undefined || next.punct || word(next) === "now";
    const courting = toks.some((t) => LOVE_WORDS.has(t.lower));
    return w !== "with" || (ends && courting) ? { span, rel: "partner" } : undefined;
  }
  const span = byStart.get(i);
  if (!span || word(toks[span.end]) !== "and" || word(toks[span.end + 1]) !== "i") return undefined;
  const from = word(toks[span.end + 2]) === "just" ? span.end + 3 : span.end + 2;
  const two = `${word(toks[from])} ${word(toks[from + 1])}`;
  const three = `${two} ${word(toks[from + 2])}`;
  return TOGETHER.has(two) || TOGETHER.has(three) ? { span, rel: "partner" } : undefined;
}

/** "I've started seeing someone new, her name is Maja": the user's partner. */
function someoneNewNamed(toks: Tok[], i: number, byStart: Map<number, NameSpan>) {
  const w = word(toks[i]);
  if ((w !== "seeing" && w !== "dating") || word(toks[i + 1]) !== "someone") return undefined;
  let at = word(toks[i + 2]) === "new" ? i + 3 : i + 2;
  if (toks[at]?.text === ",") at++;
  const whose = word(toks[at]);
  if (!["her", "his", "their"].includes(whose) || word(toks[at + 1]) !== "name" || word(toks[at + 2]) !== "is")
    return undefined;
  const span = byStart.get(at + 3);
  // Asked of as "my girlfriend" / "my boyfriend" as the pronoun says, or "my partner".
  const rel = whose === "her" ? "girlfriend" : whose === "his" ? "boyfriend" : "partner";
  return span ? { span, rel } : undefined;
}

/** "I report to Raj": the user's boss. */
function reportsTo(toks: Tok[], i: number, byStart: Map<number, NameSpan>) {
  if (word(toks[i]) !== "i" || word(toks[i + 1]) !== "report" || word(toks[i + 2]) !== "to") return undefined;
  const span = byStart.get(i + 3);
  return span ? { span, rel: "boss" } : undefined;
}

/** "<Name|I> lives in <Place>", "… moved to …", "… works at|for …", "… studies at …". */
function locative(
  toks: Tok[],
  i: number,
  span: NameSpan | undefined,
  byStart: Map<number, NameSpan>,
  self: string,
  relations: RelationInput[],
): void {
  const subject = span ? span.name : word(toks[i]) === "i" ? self : null;
  if (subject === null) return;
  const verbAt = span ? span.end : i + 1;
  const rule = LOCATIVE[word(toks[verbAt])];
  if (!rule) return;
  const prep = word(toks[verbAt + 1]);
  if (prep !== rule.prep && !(rule.prep === "at" && prep === "for")) return;
  const object = byStart.get(verbAt + 2);
  if (object) relations.push({ subject, predicate: rule.predicate, object: object.name });
}
