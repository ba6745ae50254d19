/**
 * @module memory/entities/entity-kind-en
 * The kind of a name an English memory mentions, read from the words around it: a name's own suffix
 * ("Acme Corp", "Boston Marathon"), a relation word or title before it ("my friends Mark", "Dr
 * Lee"), the verb that takes it (products and projects are used, learnt, written in, launched,
 * shipped, built and worked on; places are lived in, moved to, visited and travelled to;
 * organisations are worked at and joined), then a small lexicon (kind-lexicon.ts), then a person's
 * cues (a possessive, a verb people do, a greeting). A bare "to" or "from" says nothing ("talked
 * to Cindy"): without a cue the kind is `other`, never a confident guess. Bounded look-behind only.
 */

import { commonWord } from "./common-words";
import { type Tok, word } from "./en-tokens";
import type { EntityKind } from "./entity-types";
import { placeName } from "./gazetteer";
import { KIND_CUE } from "./kind-cues";
import { HUMAN_LANGUAGES, PRODUCT_NAMES } from "./kind-lexicon";
import { EN_RELATIONS } from "./relation-words";

const set = (words: string) => new Set(words.split(" "));

const ORG_SUFFIX = set(
  "inc corp corporation ltd llc company co university college school academy bank hospital clinic group foundation society club institute labs studio agency",
);
const EVENT_SUFFIX = set(
  "festival conference marathon wedding party summit concert fair championship cup tournament parade",
);
const WORK_VERBS = set("work works worked working job intern interning study studies studied studying");
const ORG_VERBS = set("joined join joining hired");
/** Verbs whose object is a product, project or tool (or a language people speak, kept `other`). */
const PRODUCT_VERBS = set(
  "bought buy buying ordered use uses using used drive drives own owns learn learns learning learned learnt " +
    "write writes writing wrote code coding launched launch launching shipped ship shipping built build building " +
    "released release installed install downloaded deployed play plays playing played",
);
/** Words before "in X" that make X what something is written in ("written in Rust", "an app in Swift"). */
const WRITTEN_IN = set(
  "written write writes writing wrote code coded coding programming program programs app apps script scripts",
);
const ARTICLES = set("a an the my new our");
/** Verbs before "to", "in" or "from" that make their object a place. */
const PLACE_VERBS = set(
  "live lives lived living moved move moving moves born based trip trips travel travels traveled travelled " +
    "traveling travelling flew fly flying drove went go going goes headed heading relocated relocating back came " +
    "returned stay stayed staying vacation holiday",
);
/** Bare prepositions of place ("in Bergen", "in the UK", "through the Himalayas"): weak, but mostly places. */
const PLACE_PREPS = set("in near around across through");
/** Verbs too common after a name to make it a person's ("the Hobbit is", "SF is your thing"). */
const WEAK_VERBS = set("is was has had got");
const VISIT_VERBS = set("visit visited visiting explore explored exploring");
const TITLES = set("dr mr mrs ms prof");
const GREETINGS = set("hey hi hello thanks congrats congratulations dear");
/** Verbs after a name that make it a person's (entity-rules-en.ts reads a sentence-initial name by them too). */
export const PERSON_VERBS = set(
  "works worked lives lived moved loves loved likes liked said says told tells went visited studies studied " +
    "teaches taught married adopted called texted met joined started plays played bought got has had is was " +
    "wants wanted thinks thought feels felt runs ran owns sent gave made cooked wrote came left arrived",
);

/** The kind a relation word before the name gives ("friends Mark", "dog Rex"), if any. */
function relationBefore(prev: string): EntityKind | null {
  const rel = EN_RELATIONS.get(prev) ?? (prev.endsWith("s") ? EN_RELATIONS.get(prev.slice(0, -1)) : undefined);
  return rel ? rel.kind : null;
}

/** The kind the verb or preposition before the name gives, or null. */
function contextKind(prev: string, prev2: string, lower: string): EntityKind | null {
  if ((prev === "at" || prev === "for") && WORK_VERBS.has(prev2)) return "organization";
  if (ORG_VERBS.has(prev)) return "organization";
  const productVerb = PRODUCT_VERBS.has(prev) || (ARTICLES.has(prev) && PRODUCT_VERBS.has(prev2));
  const workingOn = prev === "on" && (prev2 === "working" || prev2 === "work" || prev2 === "worked");
  if (productVerb || workingOn || (prev === "in" && WRITTEN_IN.has(prev2)))
    return HUMAN_LANGUAGES.has(lower) ? "other" : "product";
  if (VISIT_VERBS.has(prev)) return "place";
  if ((prev === "to" || prev === "from" || prev === "in") && PLACE_VERBS.has(prev2)) return "place";
  return null;
}

type Guess = { kind: EntityKind; cue: number };
const guess = (kind: EntityKind, cue: number): Guess => ({ kind, cue: kind === "other" ? KIND_CUE.none : cue });

/** The kind of the name spanning tokens [i, end), and how strong its cue is (kind-cues.ts). */
export function guessKind(toks: Tok[], i: number, end: number): Guess {
  const last = toks[end - 1].lower;
  if (ORG_SUFFIX.has(last)) return guess("organization", KIND_CUE.relation);
  if (EVENT_SUFFIX.has(last)) return guess("event", KIND_CUE.relation);
  const prev = word(toks[i - 1]);
  const prev2 = word(toks[i - 2]);
  if (TITLES.has(prev)) return guess("person", KIND_CUE.relation);
  const related = relationBefore(prev);
  if (related) return guess(related, KIND_CUE.relation);
  const lower = toks
    .slice(i, end)
    .map((t) => t.lower)
    .join(" ");
  const byContext = contextKind(prev, prev2, lower);
  if (byContext) return guess(byContext, KIND_CUE.context);
  if (PRODUCT_NAMES.has(lower)) return guess("product", KIND_CUE.weak);
  if (HUMAN_LANGUAGES.has(lower)) return guess("other", KIND_CUE.none);
  if (PLACE_PREPS.has(prev) || (prev === "the" && PLACE_PREPS.has(prev2))) return guess("place", KIND_CUE.weak);
  const next = word(toks[end]);
  // A verb people do outranks the gazetteer ("Florence works nights"); the gazetteer outranks a
  // possessive or a greeting, which places take too ("Berlin's museums").
  if (PERSON_VERBS.has(next) && !WEAK_VERBS.has(next)) return guess("person", KIND_CUE.weak);
  if (placeName(lower) && !(end - i === 1 && commonWord(lower))) return guess("place", KIND_CUE.weak);
  if (toks[end - 1].possessive || GREETINGS.has(prev)) return guess("person", KIND_CUE.weak);
  return guess("other", KIND_CUE.none);
}
