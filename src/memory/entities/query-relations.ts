/**
 * @module memory/entities/query-relations
 * The relation words a recall query names the user's people by: "my best friend", "our boss",
 * 「我闺蜜」「我的表哥」「我们领导」, each with its lookup key (entity-keys.ts entityKey: "best friend",
 * 「闺蜜」), which an entity holds as an alias when a memory tied a name to it ("my best friend is called
 * Sarah", 「我闺蜜叫小雅」). Only a relation word after a possessive counts ("a friend of a friend",
 * 「朋友圈」 are not the user's people), so a question without one costs recall nothing. Pure; linear.
 */
import { entityKey } from "./entity-keys";
import { EN_RELATIONS, ZH_RELATIONS, ZH_SAID_ONCE, ZH_SAID_ONCE_CLASS } from "./relation-words";

export interface RelationPhrase {
  /** The alias key the phrase's relation word has ("best friend", 「闺蜜」). */
  key: string;
  /** Where the phrase (possessive included) starts and ends in the query. */
  start: number;
  end: number;
}

/** At most this many phrases are read from one query. */
export const RELATION_PHRASES_MAX = 4;

/**
 * "my"/"our", a word that only says which one ("my big sister", "my younger brother"), then one or
 * two words; the words are checked against EN_RELATIONS.
 */
const EN_PHRASE =
  /\b(?:my|our)\s{1,3}(?:(?:big|little|younger|older|elder|eldest|oldest|youngest|baby|twin|step)\s{1,3})?([\p{L}'’-]{2,20})(?:\s{1,3}([\p{L}'’-]{2,20}))?/giu;
const ZH_WORDS = [...ZH_RELATIONS.keys()].sort((a, b) => b.length - a.length).join("|");
/**
 * 「我」「我的」「我们」「我们的」 right before a relation word, longest word first (表哥 before 哥); the
 * immediate family said once (「我哥」「我妈」) is read as the doubled word (哥哥, 妈妈).
 */
const ZH_PHRASE = new RegExp(`(?:我们的|我的|我们|我)(${ZH_WORDS}|${ZH_SAID_ONCE_CLASS}(?![夫媳]))`, "gu");
const POSSESSIVE_S = /['’]s$/u;

/** A word without its possessive 's, lower case. */
const bare = (w: string) => w.toLowerCase().replace(POSSESSIVE_S, "");

function english(query: string, out: RelationPhrase[]): void {
  const phrase = EN_PHRASE;
  phrase.lastIndex = 0;
  for (let m = phrase.exec(query); m !== null; m = phrase.exec(query)) {
    const firstAt = m.index + m[0].indexOf(m[1], 2);
    const two = m[2] === undefined ? undefined : `${m[1].toLowerCase()} ${bare(m[2])}`;
    if (two !== undefined && EN_RELATIONS.has(two)) {
      const secondAt = m.index + m[0].length - m[2].length;
      out.push({ key: entityKey(two), start: m.index, end: secondAt + bare(m[2]).length });
      continue;
    }
    // The second word is read again: it may start the next phrase ("my mom my dad").
    phrase.lastIndex = firstAt + m[1].length;
    if (EN_RELATIONS.has(bare(m[1])))
      out.push({ key: entityKey(bare(m[1])), start: m.index, end: firstAt + bare(m[1]).length });
  }
}

function chinese(query: string, out: RelationPhrase[]): void {
  for (const m of query.matchAll(ZH_PHRASE))
    out.push({ key: entityKey(ZH_SAID_ONCE[m[1]] ?? m[1]), start: m.index, end: m.index + m[0].length });
}

/** The relation phrases of a query, in order of appearance, at most RELATION_PHRASES_MAX. */
export function relationPhrases(query: string): RelationPhrase[] {
  const out: RelationPhrase[] = [];
  english(query, out);
  chinese(query, out);
  return out.sort((a, b) => a.start - b.start).slice(0, RELATION_PHRASES_MAX);
}
