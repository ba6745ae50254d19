/**
 * @module memory/entities/common-words
 * Whether a word is an everyday English word rather than a name: the words the Hunspell en_US
 * dictionary (`dictionary-en`) lists in lower case and never capitalised ("lazy", "yep"; "Maria",
 * "Tom" and "Grace" are names there too, so not common), written to
 * common-words.json by `npm run entity-data` (scripts/build-entity-data.ts). A capitalised word the
 * dictionary holds only as a name ("Caroline", "Berlin") is not one. Inflected forms are read back to
 * their stem by the endings the dictionary's affixes add (lately → late, cheers → cheer). Built once,
 * on first use. Pure.
 */
import words from "./common-words.json";

let built: Set<string> | null = null;

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
  if (!built) built = new Set(words.split(" "));
  const w = word.toLowerCase();
  if (built.has(w)) return true;
  return ENDINGS.some(
    ([end, add]) => w.length > end.length + 2 && w.endsWith(end) && built!.has(w.slice(0, -end.length) + add),
  );
}
