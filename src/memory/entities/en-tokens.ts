/**
 * @module memory/entities/en-tokens
 * The token scan the English entity rules read (entity-rules-en.ts finds names on it,
 * entity-kind-en.ts reads the words around a name): words and punctuation marks, each word knowing
 * whether it starts a sentence, is capitalised, or ends in a possessive 's. One linear pass.
 */

export interface Tok {
  text: string;
  lower: string;
  /** First word of a sentence (or of the text). */
  initial: boolean;
  cap: boolean;
  punct: boolean;
  /** Ends in 's / ’s (the token's text is without it). */
  possessive: boolean;
}

/** A word (letters, digits, inner apostrophes and hyphens; at most 40 characters), or a punctuation mark. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]{0,39}|[.!?;:,()"“”]/gu;
const POSSESSIVE = /['’]s$/u;
const CAPITALISED = /^\p{Lu}/u;

export function tokenize(text: string): Tok[] {
  const out: Tok[] = [];
  let initial = true;
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const punct = !/[\p{L}\p{N}]/u.test(raw[0]);
    if (punct) {
      out.push({ text: raw, lower: raw, initial: false, cap: false, punct: true, possessive: false });
      if (".!?:;".includes(raw) || raw === "(" || raw === '"' || raw === "“") initial = true;
      continue;
    }
    const possessive = POSSESSIVE.test(raw);
    const word = possessive ? raw.slice(0, -2) : raw;
    out.push({ text: word, lower: word.toLowerCase(), initial, cap: CAPITALISED.test(word), punct: false, possessive });
    initial = false;
  }
  return out;
}

/** The token's lower-case word; "" for punctuation or past either end. */
export const word = (t: Tok | undefined): string => (t && !t.punct ? t.lower : "");
