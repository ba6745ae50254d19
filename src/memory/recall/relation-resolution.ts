/**
 * @module memory/recall/relation-resolution
 * Relation words find people: a query naming someone by how they relate to the user ("what does my
 * best friend do?", 「我闺蜜是做什么工作的」) is read with the name that relation word is an alias of
 * (entities/query-relations.ts finds the phrase; EntityStore.aliasNames the name, one D1 statement),
 * so the memories about the person ("Sarah works as a nurse", 「小雅在银行做理财经理」) answer though
 * they share no word with the question. Recall searches the query with the name beside the relation
 * word; a candidate that names the person (namesPerson) counts as matching the relation word, with
 * full entity evidence; abstention is judged on the query as asked and on the query with the name in
 * the relation word's place ("what does Sarah do?"), answering if either is covered. A query without a relation
 * phrase costs nothing; one whose relation names nobody the user has is read as asked. On by default
 * (RECALL_RELATIONS), apart from the entity channel (RECALL_ENTITIES).
 */
import { relationPhrases } from "../entities/query-relations";
import type { MemoryDeps } from "../service-deps";
import type { Owner } from "../types";
import { relationWords } from "./unresolved-relation";

/** Names one lookup may bring back (a relation word may alias more than one person). */
const NAMES_MAX = 8;

export interface ResolvedQuery {
  /** The names the query's relation words stand for ("Sarah", 「小雅」). */
  names: string[];
  /** The alias keys of the relation words that resolved ("best friend", 「闺蜜」). */
  keys: string[];
  /** The query with each resolved relation phrase followed by its name: "what does my best friend Sarah do?". */
  expanded: string;
  /** The query with each resolved relation phrase replaced by its name: "what does Sarah do?". */
  replaced: string;
}

export const relationRecallOn = (deps: MemoryDeps): boolean => deps.settings.relationRecall !== false;

/** The query read with the names its relation words stand for; null when it has none the user named. */
export async function resolveRelations(deps: MemoryDeps, owner: Owner, query: string): Promise<ResolvedQuery | null> {
  if (!relationRecallOn(deps)) return null;
  const phrases = relationPhrases(query);
  if (phrases.length === 0) return null;
  // The person told of as 「我先生」 is asked about as 「我老公」: every word of the same relation is looked up.
  const words = new Map(phrases.map((p) => [p.key, relationWords(p.key)]));
  const nameFor = (key: string) => (words.get(key) ?? [key]).map((k) => nameOf.get(k)).find((n) => n !== undefined);
  const found = await deps.entities
    .aliasNames(owner, [...new Set([...words.values()].flat())], NAMES_MAX)
    .catch((err) => {
      deps.log.warn("relation lookup failed; recall reads the query as asked", {
        error: err instanceof Error ? err.name : "unknown",
      });
      return [];
    });
  // The most recently updated entity holding the key: after a change of partner, the current one.
  const nameOf = new Map<string, string>();
  for (const a of found) if (!nameOf.has(a.key)) nameOf.set(a.key, a.name);
  let expanded = "";
  let replaced = "";
  let at = 0;
  for (const p of phrases) {
    const name = nameFor(p.key);
    if (name === undefined) continue;
    expanded += `${query.slice(at, p.end)} ${name}`;
    replaced += `${query.slice(at, p.start)}${name}`;
    at = p.end;
  }
  if (at === 0) return null;
  const names = [...new Set(phrases.flatMap((p) => nameFor(p.key) ?? []))];
  const keys = [...new Set(phrases.filter((p) => nameFor(p.key) !== undefined).map((p) => p.key))];
  return { names, keys, expanded: expanded + query.slice(at), replaced: replaced + query.slice(at) };
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const HAN = /\p{Script=Han}/u;

/**
 * Whether `content` names the person: the name as a whole word, any case ("Sarah", not "Sarahs"; "Tom",
 * not "tomorrow"), or for a Chinese name, anywhere (Chinese has no spaces between words).
 */
export function namesPerson(content: string, name: string): boolean {
  const text = content.toLowerCase();
  const wanted = name.toLowerCase();
  if (wanted.length === 0) return false;
  if (HAN.test(wanted)) return text.includes(wanted);
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1))
    if (!isWordChar(text[at - 1]) && !isWordChar(text[at + wanted.length])) return true;
  return false;
}
