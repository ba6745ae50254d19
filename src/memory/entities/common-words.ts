/**
 * @module memory/entities/common-words
 * Whether a word is an everyday English word rather than a name: the words the Hunspell en_US
 * dictionary (`dictionary-en`) lists in lower case and never capitalised ("lazy", "yep"; "Maria",
 * "Tom" and "Grace" are names there too, so not common), written to
 * common-words.json by `npm run entity-data` (scripts/build-entity-data.ts). A capitalised word the
 * dictionary holds only as a name ("Caroline", "Berlin") is not one. Inflected forms are read back to
 * their stem by the endings the dictionary's affixes add (lately → late, cheers → cheer). Searched in
 * the sorted string itself (sorted-words.ts): nothing is built. Pure.
 */
import words from "./common-words.json";
import { inSortedList } from "./sorted-words";

const has = (w: string) => inSortedList(words, " ", w);

const ENDINGS: [string, string][] = [
  ["ily", "y"],
  ["ly", ""],
  ["ies", "y"],
  ["es", ""],
  ["s", ""],
  ["ied", "y"],
  ["ed", ""],
  ["ed", "e"],
  ["ing", ""],
  ["ing", "e"],
];

/** True when `word` (any case) is, or inflects, a lower-case dictionary word. */
export function commonWord(word: string): boolean {
  const w = word.toLowerCase();
  if (has(w)) return true;
  return ENDINGS.some(
    ([end, add]) => w.length > end.length + 2 && w.endsWith(end) && has(w.slice(0, -end.length) + add),
  );
}
